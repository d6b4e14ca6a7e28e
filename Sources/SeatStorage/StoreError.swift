import CSQLite

/// What went wrong in a store, in the words the domain acts on, whichever database said it: SQLite's
/// result codes and PostgreSQL's SQLSTATEs are read here and nowhere else (the domain once made up
/// SQLite codes for its own conditions and told a conflict from a race by the text "changed meanwhile").
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The change contradicts what the store holds: a seat claimed first (a unique key), a hold or a sale
    /// another instance finished (`SK001`). Nothing of the change was written. A real conflict.
    case conflict(String)
    /// The show's own row changed on another instance at the same moment (`SK002`), or the database
    /// broke a serialization or deadlock tie (`40001`, `40P01`): nothing was written; the same request
    /// again will be decided against the new state.
    case changedElsewhere(String)
    /// The store cannot answer now (unreachable, failing, a show being reloaded from it). `cause` is for
    /// the operator's log: it may name a host and port, and never goes to a client.
    case unavailable(cause: String)
    /// The store was closed (the server is shutting down).
    case closed

    /// The error classified: a `StoreError` as it is, a SQLite or PostgreSQL error by its code, anything
    /// else as unavailable.
    public init(_ error: any Error) {
        switch error {
        case let e as StoreError: self = e
        case let e as DatabaseError:
            switch e.code & 0xFF {
            case SQLITE_CONSTRAINT: self = .conflict(e.message)
            default: self = .unavailable(cause: e.description)
            }
        case let e as PostgresError: self = Self(sqlState: e.sqlState, message: e.message)
        default: self = .unavailable(cause: String(describing: error))
        }
    }

    /// PostgreSQL's SQLSTATE: class 23 (integrity) and SeatKit's `SK001` a conflict, `SK002` and the
    /// transaction-rollback class 40 a race to retry, everything else unavailable.
    public init(sqlState: String, message: String) {
        if sqlState == "SK002" || sqlState == "40001" || sqlState == "40P01" {
            self = .changedElsewhere(message)
        } else if sqlState == "SK001" || (sqlState.hasPrefix("23") && sqlState != "23503") {
            // 23503 (a referenced row missing) means the store lost a row: a failure, not a conflict.
            self = .conflict(message)
        } else {
            self = .unavailable(cause: "PostgreSQL error \(sqlState): \(message)")
        }
    }

    public var description: String {
        switch self {
        case .conflict(let m): "conflict: \(m)"
        case .changedElsewhere(let m): "changed elsewhere: \(m)"
        case .unavailable(let cause): "unavailable: \(cause)"
        case .closed: "closed"
        }
    }

    /// A unique key or another instance's change said no.
    public var isConflict: Bool { if case .conflict = self { true } else { false } }
}
