/// What went wrong in a store, in the words the domain acts on, whichever database said it. The stores
/// adapt their own errors to it (`StoreErrorConvertible`: SQLite's result codes and PostgreSQL's
/// SQLSTATEs are read in SeatStorage and nowhere else); the domain never sees a database's error type
/// (it once made up SQLite codes for its own conditions and told a conflict from a race by the text
/// "changed meanwhile").
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

    /// The error classified: a `StoreError` as it is, a store's own error as it converts itself,
    /// anything else as unavailable.
    public init(_ error: any Error) {
        switch error {
        case let e as StoreError: self = e
        case let e as any StoreErrorConvertible: self = e.storeError
        default: self = .unavailable(cause: String(describing: error))
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

    /// The unique index that keeps an admission to one active hold; a conflict naming it is that.
    public static let admissionIndex = "holds_admission"

    /// The admission of the change already has an active hold (made on another instance: this one's
    /// memory refuses the second hold itself).
    public var isAdmissionInUse: Bool { if case .conflict(let m) = self { m.contains(Self.admissionIndex) } else { false } }

    /// The unique index that keeps an identity document to one claim a show (a real-name sale).
    public static let identityIndex = "claims_identity"

    /// An attendee of the change has a seat of the show already (taken on another instance, or in
    /// the same batch: this one's memory refuses the second itself).
    public var isIdentityInUse: Bool { if case .conflict(let m) = self { m.contains(Self.identityIndex) } else { false } }
}

/// A store's own error type, saying what it means in the domain's words.
public protocol StoreErrorConvertible: Error {
    var storeError: StoreError { get }
}
