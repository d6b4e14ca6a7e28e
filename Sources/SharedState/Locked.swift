import Foundation

/// A value and the one lock that guards it: the only way to reach the value is `withLock`, so no
/// access can forget the lock. Every piece of state shared between threads lives in one of these (or
/// in a type that says which `Locked` owns it). Threads that must wait for the value to change (a
/// ticket's commit, a writer's queue) wait on it too: `wait(until:)`, woken by `withLockWakingWaiters`.
/// Never call out to the store or another `Locked` from inside `withLock` unless ARCHITECTURE.md's lock
/// order allows it.
public final class Locked<Value> {
    // An NSCondition is a pthread mutex plus a condition variable: locking it costs what an NSLock
    // does (~20 ns uncontended), and one type serves both the plain boxes and the waited-on ones.
    // `@usableFromInline` so `withLock` is inlined and specialised in the caller's module: as a plain
    // generic call it was 0.45 % of the server's CPU under hold + release (perf), plus its closure.
    @usableFromInline let condition = NSCondition()
    @usableFromInline var value: Value

    public init(_ value: sending Value) { self.value = value }

    /// Runs `body` with the value, under the lock; what it returns must not share state with the value
    /// (`sending`), unless it is `Sendable`.
    /// - Complexity: the body's, plus one lock and unlock.
    @inlinable @inline(__always)
    public func withLock<T, E: Error>(_ body: (inout sending Value) throws(E) -> sending T) throws(E) -> sending T {
        condition.lock()
        defer { condition.unlock() }
        return try body(&value)
    }

    /// Runs `body` under the lock, then wakes every thread waiting in `wait(until:)`.
    @inlinable
    public func withLockWakingWaiters<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Waits (the lock released meanwhile) until `ready` holds or `deadline` passes, then runs `body`
    /// under the lock; `body`'s second argument says whether `ready` held.
    @inlinable
    public func wait<T, E: Error>(until ready: (Value) -> Bool, deadline: Date? = nil, _ body: (inout Value, Bool) throws(E) -> T) throws(E) -> T {
        condition.lock()
        defer { condition.unlock() }
        while !ready(value) {
            if let deadline {
                if !condition.wait(until: deadline) { break }
            } else {
                condition.wait()
            }
        }
        return try body(&value, ready(value))
    }

    /// A copy of the value, read under the lock.
    @inlinable public var current: Value { withLock { $0 } }
}

/// Sendable whatever its value, as the standard library's `Mutex` is: the lock serialises every access
/// (which the compiler cannot see through an `NSCondition`: `@unchecked`), and a value goes in and comes
/// out only as `sending` (`init`, `withLock`), so the compiler proves no non-Sendable part of it (the
/// inventory's `Memory`, its shows) is reachable from outside the lock. That is why `Memory` needs no
/// `@unchecked Sendable` of its own.
extension Locked: @unchecked Sendable {}
