#if canImport(UIKit)
import AVFoundation
import UIKit

/// The door on a phone: the camera reads ticket QR codes (AVFoundation's metadata output), each code is
/// handed to `check` once (the app posts it to `POST /v1/checkin` through `SeatAPIClient.checkIn`, or
/// checks it offline), and the answer fills the screen green or red with the seat and why, with a haptic,
/// for 1.5 s; then the camera reads the next code. The same code held in front of the camera is checked
/// once, not at every frame (a code is read again only after 3 s).
@MainActor public final class DoorScannerViewController: UIViewController, AVCaptureMetadataOutputObjectsDelegate {
    /// What the door says of one code: green or red, a word to read at arm's length, the seat, why.
    public struct Answer: Sendable {
        public var ok: Bool
        public var word: String
        public var seat: String?
        public var detail: String
        public init(ok: Bool, word: String, seat: String?, detail: String) { self.ok = ok; self.word = word; self.seat = seat; self.detail = detail }
    }

    private let check: @Sendable (String) async -> Answer
    private let capture = CaptureRunner()
    private var preview: AVCaptureVideoPreviewLayer?
    private let panel = UIView(frame: .zero)
    private let word = UILabel(frame: .zero), seat = UILabel(frame: .zero), detail = UILabel(frame: .zero)
    /// The code last read and when: the camera sees a code many times a second.
    private var last: (code: String, at: Date)?
    private var busy = false

    /// `check` answers a code (on any thread); the view controller shows the answer on the main actor.
    public init(check: @escaping @Sendable (String) async -> Answer) {
        self.check = check
        super.init(nibName: nil, bundle: nil)
    }

    public required init?(coder: NSCoder) { nil }

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = UIColor(white: 0, alpha: 1)
        let session = capture.session
        if let camera = AVCaptureDevice.default(for: .video), let input = try? AVCaptureDeviceInput(device: camera), session.canAddInput(input) {
            session.addInput(input)
            let output = AVCaptureMetadataOutput()
            if session.canAddOutput(output) {
                session.addOutput(output)
                output.setMetadataObjectsDelegate(self, queue: DispatchQueue.main)
                output.metadataObjectTypes = [.qr]
            }
            let layer = AVCaptureVideoPreviewLayer(session: session)
            layer.videoGravity = .resizeAspectFill
            layer.frame = view.bounds
            view.layer.addSublayer(layer)
            preview = layer
        } else {
            show(Answer(ok: false, word: "No camera", seat: nil, detail: "Allow the camera in Settings to scan tickets"))
        }
        panel.isHidden = true
        for (label, size) in [(word, 44.0), (seat, 28.0), (detail, 17.0)] {
            label.textColor = .white
            label.textAlignment = .center
            label.numberOfLines = 0
            label.font = UIFont.systemFont(ofSize: size, weight: size > 20 ? .bold : .regular)
            panel.addSubview(label)
        }
        view.addSubview(panel)
    }

    // The camera runs while the scanner is on screen: a door phone left on another screen is not filming.
    public override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        capture.start()
    }

    public override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        capture.stop()
    }

    public override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        preview?.frame = view.bounds
        panel.frame = view.bounds
        let width = view.bounds.width - 32, middle = view.bounds.midY
        word.frame = CGRect(x: 16, y: middle - 110, width: width, height: 60)
        seat.frame = CGRect(x: 16, y: middle - 40, width: width, height: 40)
        detail.frame = CGRect(x: 16, y: middle + 10, width: width, height: 80)
    }

    // The delegate is called on the main queue (set above).
    public nonisolated func metadataOutput(
        _ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection
    ) {
        let codes = metadataObjects.compactMap { ($0 as? AVMetadataMachineReadableCodeObject)?.stringValue }
        MainActor.assumeIsolated { if let code = codes.first { read(code) } }
    }

    private func read(_ code: String) {
        guard !busy else { return }
        if let last, last.code == code, Date().timeIntervalSince(last.at) < 3 { return }
        last = (code, Date())
        busy = true
        let check = self.check
        Task { @MainActor in
            let answer = await check(code)
            show(answer)
            try? await Task.sleep(nanoseconds: 1_500_000_000)
            panel.isHidden = true
            busy = false
        }
    }

    private func show(_ answer: Answer) {
        panel.backgroundColor = answer.ok ? UIColor(red: 0.043, green: 0.42, blue: 0.18, alpha: 1) : UIColor(red: 0.64, green: 0.086, blue: 0.10, alpha: 1)
        word.text = answer.word
        seat.text = answer.seat
        detail.text = answer.detail
        panel.isHidden = false
        panel.isAccessibilityElement = true
        panel.accessibilityLabel = [answer.word, answer.seat, answer.detail].compactMap { $0 }.joined(separator: ", ")
        UIAccessibility.post(notification: .announcement, argument: panel.accessibilityLabel)
        UINotificationFeedbackGenerator().notificationOccurred(answer.ok ? .success : .error)
    }
}

/// The capture session and the queue that starts and stops it: starting blocks for a moment, so it
/// runs off the main thread, as Apple advises. AVCaptureSession is not Sendable (the iOS 18.6 SDK says
/// so, and Swift 6 refused the capture of it in a `@Sendable` closure that the old stand-in allowed).
/// `@unchecked Sendable` because of that discipline: the session is configured on the main actor
/// before the first `start`, and afterwards started and stopped only on `queue`, one at a time.
private final class CaptureRunner: @unchecked Sendable {
    let session = AVCaptureSession()
    private let queue = DispatchQueue(label: "seatkit.door.capture", qos: .userInitiated)

    func start() { queue.async { if !self.session.isRunning { self.session.startRunning() } } }
    func stop() { queue.async { if self.session.isRunning { self.session.stopRunning() } } }
}
#endif
