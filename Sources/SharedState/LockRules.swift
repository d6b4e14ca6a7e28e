#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One rule of ARCHITECTURE.md's lock order, checked in debug builds (every test suite): no store call
/// while the current thread holds a lock that forbids them — the inventory's, under which a store's
/// round trip (a millisecond on PostgreSQL, a disk flush on SQLite) stalls every request of every show.
/// The inventory marks its lock taken and released; the stores check at their one way into the
/// database. Release builds do nothing (a thread-local read a call was not worth it).
public enum LockRules {
    #if DEBUG
    /// Per thread: how many store-forbidding locks it holds (a count, as the pointer's bit pattern).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-local key left")
        return key
    }()

    private static var held: Int {
        get { Int(bitPattern: pthread_getspecific(key)) }
        set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
    }
    #endif

    /// The current thread took a lock under which no store call may happen.
    @inline(__always) public static func enterNoStoreCalls() {
        #if DEBUG
        held += 1
        #endif
    }

    /// The current thread released it.
    @inline(__always) public static func leaveNoStoreCalls() {
        #if DEBUG
        held -= 1
        #endif
    }

    /// Whether the current thread holds a lock that forbids store calls (always false in release builds).
    public static var storeCallsForbidden: Bool {
        #if DEBUG
        held > 0
        #else
        false
        #endif
    }

    /// Stops the process (debug builds) when `store`'s call happens under a lock that forbids it: a test
    /// that reaches one fails with the call's place, instead of the server stalling under load.
    @inline(__always) public static func checkStoreCall(_ store: StaticString, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        if held > 0 { fatalError("\(store) called while a lock that forbids store calls is held (the inventory's)", file: file, line: line) }
        #endif
    }
}
