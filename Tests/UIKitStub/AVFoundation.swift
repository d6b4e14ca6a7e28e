// Stand-in for the part of AVFoundation SeatKitUI's door scanner uses, with Apple's names and
// signatures, so `scripts/check-uikit.sh` can type-check it on Linux. Bodies are empty: nothing runs.
@_exported import Foundation
import UIKit

public struct AVMediaType: Hashable, Sendable { public static let video = AVMediaType() }

open class AVCaptureDevice: NSObject, @unchecked Sendable {
    open class func `default`(for mediaType: AVMediaType) -> AVCaptureDevice? { nil }
}
open class AVCaptureInput: NSObject, @unchecked Sendable {}
open class AVCaptureDeviceInput: AVCaptureInput, @unchecked Sendable {
    public init(device: AVCaptureDevice) throws {}
}
open class AVCaptureOutput: NSObject, @unchecked Sendable {}
open class AVCaptureConnection: NSObject, @unchecked Sendable {}
open class AVCaptureSession: NSObject, @unchecked Sendable {
    public override init() {}
    open func canAddInput(_ input: AVCaptureInput) -> Bool { true }
    open func addInput(_ input: AVCaptureInput) {}
    open func canAddOutput(_ output: AVCaptureOutput) -> Bool { true }
    open func addOutput(_ output: AVCaptureOutput) {}
    open func startRunning() {}
    open func stopRunning() {}
    open var isRunning: Bool { false }
}
open class AVMetadataObject: NSObject, @unchecked Sendable {
    public struct ObjectType: Hashable, Sendable { public static let qr = ObjectType() }
    open var type: AVMetadataObject.ObjectType { .qr }
}
open class AVMetadataMachineReadableCodeObject: AVMetadataObject, @unchecked Sendable {
    open var stringValue: String? { nil }
}
public protocol AVCaptureMetadataOutputObjectsDelegate: NSObjectProtocol {
    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection)
}
open class AVCaptureMetadataOutput: AVCaptureOutput, @unchecked Sendable {
    public override init() {}
    open func setMetadataObjectsDelegate(_ objectsDelegate: (any AVCaptureMetadataOutputObjectsDelegate)?, queue objectsCallbackQueue: DispatchQueue?) {}
    open var metadataObjectTypes: [AVMetadataObject.ObjectType]! = []
}
public struct AVLayerVideoGravity: Hashable, Sendable { public static let resizeAspectFill = AVLayerVideoGravity(), resizeAspect = AVLayerVideoGravity() }
open class AVCaptureVideoPreviewLayer: CALayer {
    public init(session: AVCaptureSession) { super.init() }
    open var videoGravity: AVLayerVideoGravity = .resizeAspect
}
