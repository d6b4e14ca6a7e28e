#if canImport(UIKit)
import SeatCanvas
import SeatKitUI
import SeatMap
import SeatSync
import UIKit

/// One show's seat map bound to a SeatSession: taps hold seats at once, refusals roll back with a
/// message, other buyers' seats turn grey live; Buy pays with WeChat Pay or Alipay (the hand-off to the
/// wallet's own SDK said in words: those SDKs are outside this package), or confirms a free hold.
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
        let sheet = UIAlertController(title: "Pay", message: "How would you like to pay?", preferredStyle: .actionSheet)
        sheet.addAction(UIAlertAction(title: "WeChat Pay 微信支付", style: .default) { _ in self.pay(with: "wechatpay", wallet: "WeChat") })
        sheet.addAction(UIAlertAction(title: "Alipay 支付宝", style: .default) { _ in self.pay(with: "alipay", wallet: "Alipay") })
        sheet.addAction(UIAlertAction(title: "Nothing to pay (free seats)", style: .default) { _ in self.confirmFree() })
        sheet.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        present(sheet, animated: true)
    }

    /// The payment made by the server; the app then hands it to the wallet's SDK (WeChat's OpenSDK, Alipay's
    /// SDK) and waits for the server to say sold: the seats are sold only when the provider says paid.
    func pay(with provider: String, wallet: String) {
        guard let session else { return }
        Task {
            guard let payment = await session.checkout(provider: provider) else {
                message.text = await session.state.message?.english ?? "The payment could not be made"
                return
            }
            message.text =
                "Paying ¥\(payment.amount) with \(wallet) (order \(payment.orderRef ?? "")): here the app hands the payment to "
                + "\(wallet)'s SDK, which opens \(wallet). Waiting for \(wallet) to say paid…"
            while true {
                switch await session.paymentResult() {
                case .paid(let orderRef):
                    message.text = "Paid with \(wallet): order \(orderRef ?? payment.orderRef ?? "") is yours."
                    return
                case .ended:
                    message.text = "The time to pay ran out and the seats were let go. If you paid, the money goes back."
                    return
                case .paying, .unknown:
                    try? await Task.sleep(nanoseconds: 3_000_000_000)
                }
            }
        }
    }

    /// A hold that costs nothing (or a server that takes no money online) is confirmed as it is.
    func confirmFree() {
        guard let session else { return }
        Task {
            let order = await session.confirm(orderRef: "IOS-\(UUID().uuidString.prefix(8))")
            message.text = order.map { "Bought \($0.seats.joined(separator: ", ")) for ¥\($0.total)" } ?? "Nothing to buy"
        }
    }
}
#endif
