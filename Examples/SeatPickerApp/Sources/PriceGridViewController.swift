#if canImport(UIKit)
import CollectionLayout
import SeatJSON
import SeatKitUI
import SeatMap
import UIKit

/// A price matrix in a GridView: shows down the frozen first column, price categories across the
/// frozen first row; scroll either way and the headers follow.
final class PriceGridViewController: UIViewController, GridViewDataSource {
    let shows: [JSONObject]
    let categories: [String]
    let grid = GridView(frozenRows: 1, frozenColumns: 1)

    init(shows: [JSONObject]) {
        self.shows = shows
        categories = Array(Set(shows.flatMap { $0["prices"]?.objectValue?["categories"]?.objectValue?.keys.map { $0 } ?? [] })).sorted()
        super.init(nibName: nil, bundle: nil)
        title = "Prices"
    }

    required init?(coder: NSCoder) { return nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        grid.frame = view.bounds
        grid.register(TextCell.self, forReuseIdentifier: "text")
        grid.dataSource = self
        view.addSubview(grid)
    }

    func numberOfRows(in gridView: GridView) -> Int { shows.count + 1 }
    func numberOfColumns(in gridView: GridView) -> Int { categories.count + 1 }
    func gridView(_ gridView: GridView, widthOfColumn column: Int) -> Double { column == 0 ? 140 : 96 }

    func gridView(_ gridView: GridView, cellAt cell: GridCell) -> GridViewCell {
        let view = gridView.dequeueReusableCell(withIdentifier: "text") as! TextCell
        switch (cell.row, cell.column) {
        case (0, 0): view.label.text = "Show"
        case (0, let c): view.label.text = categories[c - 1]
        case (let r, 0): view.label.text = shows[r - 1]["id"]?.stringValue
        case (let r, let c): view.label.text = shows[r - 1]["prices"]?.objectValue?["categories"]?.objectValue?[categories[c - 1]]?.stringValue ?? "–"
        }
        view.backgroundColor = cell.row == 0 || cell.column == 0 ? .secondarySystemBackground : .systemBackground
        return view
    }
}

final class TextCell: GridViewCell {
    let label = UILabel()

    required init(frame: CGRect) {
        super.init(frame: frame)
        label.textAlignment = .center
        addSubview(label)
    }

    required init?(coder: NSCoder) { return nil }

    override func layoutSubviews() {
        super.layoutSubviews()
        label.frame = bounds
    }

    override func prepareForReuse() { label.text = nil }
}
#endif
