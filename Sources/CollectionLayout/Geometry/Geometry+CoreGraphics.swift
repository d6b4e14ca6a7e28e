#if canImport(CoreGraphics)
import CoreGraphics
#else
// swift-corelibs-foundation defines CGFloat, CGPoint, CGSize and CGRect, so the conversions exist (and
// are tested) on Linux too.
import Foundation
#endif

// What a UIKit or AppKit adapter hands in and gets back: the engine computes in `Double`.

extension LayoutRect {
    public init(_ r: CGRect) { self.init(x: Double(r.minX), y: Double(r.minY), width: Double(r.width), height: Double(r.height)) }
    public var cgRect: CGRect { CGRect(x: minX, y: minY, width: width, height: height) }
}

extension LayoutPoint {
    public init(_ p: CGPoint) { self.init(x: Double(p.x), y: Double(p.y)) }
    public var cgPoint: CGPoint { CGPoint(x: x, y: y) }
}

extension LayoutSize {
    public init(_ s: CGSize) { self.init(width: Double(s.width), height: Double(s.height)) }
    public var cgSize: CGSize { CGSize(width: width, height: height) }
}
