import Foundation

/// A value and the one lock that guards it: the only way to reach the value is `withLock`, so no
/// access can forget the lock. Every piece of state shared between the server's threads lives in one of
/// these (or in a type that says which lock owns it). Never call out to libmicrohttpd, the store or
/// another `Locked` from inside `withLock` unless ARCHITECTURE.md's lock order allows it.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    /// - Complexity: the body's, plus one uncontended lock and unlock (~20 ns).
    @inline(__always)
    public func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value, read under the lock.
    public var current: Value { withLock { $0 } }
}
