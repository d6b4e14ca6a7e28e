#if canImport(UIKit)
import SeatCanvas
import SeatKitUI
import SeatMap
import SeatSync
import UIKit

/// One show's seat map bound to a SeatSession: taps hold seats at once, refusals roll back with a
/// message, other buyers' seats turn grey live; Buy confirms the hold.
final class SeatMapViewController: UIViewController, SeatMapViewDelegate {
    let api: SeatAPIClient
    let showID: String
    var session: SeatSession?
    let message = UILabel()

    init(api: SeatAPIClient, showID: String) {
        self.api = api
        self.showID = showID
        super.init(nibName: nil, bundle: nil)
        title = showID
    }

    required init?(coder: NSCoder) { return nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        message.frame = CGRect(x: 16, y: view.bounds.height - 80, width: view.bounds.width - 32, height: 60)
        message.numberOfLines = 2
        view.addSubview(message)
        navigationItem.rightBarButtonItem = UIBarButtonItem(title: "Buy", style: .done, target: self, action: #selector(buy))
        Task { await open() }
    }

    func open() async {
        guard let session = try? await SeatSession(api: api, show: showID) else { message.text = "Cannot reach the server"; return }
        self.session = session
        let state = await session.state
        let map = SeatMapView(canvas: SeatCanvas(layout: state.layout), content: FrameContent(availability: state.server, language: .english))
        map.frame = CGRect(x: 0, y: 100, width: view.bounds.width, height: view.bounds.height - 200)
        map.delegate = self
        view.addSubview(map)
        map.bind(to: session)
        await session.startLiveUpdates()
    }

    func seatMapView(_ view: SeatMapView, didReceive message: SessionMessage) { self.message.text = message.english }

    @objc func buy() {
        guard let session else { return }
        Task {
            let order = await session.confirm(orderRef: "IOS-\(UUID().uuidString.prefix(8))")
            message.text = order.map { "Bought \($0.seats.joined(separator: ", ")) for ¥\($0.total)" } ?? "Nothing to buy"
        }
    }
}
#endif
