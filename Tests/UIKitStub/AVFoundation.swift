// Stand-in for the part of AVFoundation SeatKitUI's door scanner uses, with Apple's names and
// signatures, so `scripts/check-uikit.sh` can type-check it on Linux. Bodies are empty: nothing runs.
// Sendable as the iOS 18.6 SDK says, no more: the capture classes are plain NSObject subclasses there
// (no NS_SWIFT_SENDABLE in AVCaptureSession.h and its neighbours, no Sendable extension in the
// AVFoundation overlay), so they are not Sendable here either; the string enums (AVMediaType,
// AVLayerVideoGravity, AVMetadataObject.ObjectType: NS_EXTENSIBLE_STRING_ENUM / NS_TYPED_ENUM) import as
// Sendable structs. A stand-in that called the session Sendable let a capture of it in a @Sendable
// closure pass here and fail in Xcode.
@_exported import Foundation
import UIKit

public struct AVMediaType: Hashable, Sendable { public static let video = AVMediaType() }

open class AVCaptureDevice: NSObject {
    open class func `default`(for mediaType: AVMediaType) -> AVCaptureDevice? { nil }
}
open class AVCaptureInput: NSObject {}
open class AVCaptureDeviceInput: AVCaptureInput {
    public init(device: AVCaptureDevice) throws {}
}
open class AVCaptureOutput: NSObject {}
open class AVCaptureConnection: NSObject {}
open class AVCaptureSession: NSObject {
    public override init() {}
    open func canAddInput(_ input: AVCaptureInput) -> Bool { true }
    open func addInput(_ input: AVCaptureInput) {}
    open func canAddOutput(_ output: AVCaptureOutput) -> Bool { true }
    open func addOutput(_ output: AVCaptureOutput) {}
    open func startRunning() {}
    open func stopRunning() {}
    open var isRunning: Bool { false }
}
open class AVMetadataObject: NSObject {
    public struct ObjectType: Hashable, Sendable { public static let qr = ObjectType() }
    open var type: AVMetadataObject.ObjectType { .qr }
}
open class AVMetadataMachineReadableCodeObject: AVMetadataObject {
    open var stringValue: String? { nil }
}
public protocol AVCaptureMetadataOutputObjectsDelegate: NSObjectProtocol {
    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection)
}
open class AVCaptureMetadataOutput: AVCaptureOutput {
    public override init() {}
    open func setMetadataObjectsDelegate(_ objectsDelegate: (any AVCaptureMetadataOutputObjectsDelegate)?, queue objectsCallbackQueue: DispatchQueue?) {}
    open var metadataObjectTypes: [AVMetadataObject.ObjectType]! = []
}
public struct AVLayerVideoGravity: Hashable, Sendable { public static let resizeAspectFill = AVLayerVideoGravity(), resizeAspect = AVLayerVideoGravity() }
open class AVCaptureVideoPreviewLayer: CALayer {
    public init(session: AVCaptureSession) { super.init() }
    open var videoGravity: AVLayerVideoGravity = .resizeAspect
}
