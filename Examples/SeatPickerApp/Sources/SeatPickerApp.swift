#if canImport(UIKit)
import SeatSync
import UIKit

/// The example app: show times in a carousel, a price grid, and the seat map of a show, all against
/// `seatkit serve` (make demo) on the Mac running the simulator.
@main final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    /// The simulator reaches the Mac's loopback; on a device, use the Mac's address.
    static let server = URL(string: "http://127.0.0.1:8080")!

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        let api = SeatAPIClient(baseURL: Self.server)
        window.rootViewController = UINavigationController(rootViewController: ShowsViewController(api: api))
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}
#endif
