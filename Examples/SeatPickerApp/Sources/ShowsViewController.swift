#if canImport(SwiftUI) && canImport(UIKit)
import SeatJSON
import SeatKitUI
import SeatMap
import SeatSync
import SwiftUI
import UIKit

/// Show times as cards that scroll sideways and snap (CarouselView), a switch to the list style, and a
/// button to the price grid, and one to the same screens in SwiftUI. Tapping a card opens its seat map.
final class ShowsViewController: UIViewController, CarouselViewDataSource, CarouselViewDelegate {
    let api: SeatAPIClient
    var shows: [JSONObject] = []
    let carousel = CarouselView(preset: .cardCarousel)

    init(api: SeatAPIClient) {
        self.api = api
        super.init(nibName: nil, bundle: nil)
        title = "Shows"
    }

    required init?(coder: NSCoder) { return nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        carousel.dataSource = self
        carousel.delegate = self
        carousel.frame = CGRect(x: 0, y: 120, width: view.bounds.width, height: 160)
        view.addSubview(carousel)
        navigationItem.rightBarButtonItems = [
            UIBarButtonItem(title: "List", style: .plain, target: self, action: #selector(toggleStyle)),
            UIBarButtonItem(title: "SwiftUI", style: .plain, target: self, action: #selector(showSwiftUI)),
        ]
        navigationItem.leftBarButtonItem = UIBarButtonItem(title: "Prices", style: .plain, target: self, action: #selector(showPrices))
        Task {
            shows = (try? await api.shows()) ?? []
            carousel.reloadData()
        }
    }

    @objc func toggleStyle() { carousel.preset = carousel.preset == .cardCarousel ? .list : .cardCarousel }

    @objc func showSwiftUI() {
        let screen = UIHostingController(rootView: SwiftUIShowsScreen(api: api))
        screen.title = "SwiftUI"
        navigationController?.pushViewController(screen, animated: true)
    }

    @objc func showPrices() { navigationController?.pushViewController(PriceGridViewController(shows: shows), animated: true) }

    func numberOfItems(in carousel: CarouselView) -> Int { shows.count }

    func carousel(_ carousel: CarouselView, viewForItem item: Int, reusing view: UIView?) -> UIView {
        let label = (view as? UILabel) ?? UILabel()
        let show = shows[item]
        label.text = "\(show["startsAt"]?.stringValue ?? "") · \(show["seats"]?.objectValue?["available"]?.intValue ?? 0) free"
        label.textAlignment = .center
        label.backgroundColor = .secondarySystemBackground
        return label
    }

    func carousel(_ carousel: CarouselView, didSelectItem item: Int) {
        guard let id = shows[item]["id"]?.stringValue else { return }
        navigationController?.pushViewController(SeatMapViewController(api: api, showID: id), animated: true)
    }
}
#endif
