import CSQLite
import SeatDomain

/// SQLite's result codes in the domain's words: a constraint (a seat's unique key) is a conflict,
/// anything else the store being unavailable.
extension DatabaseError: StoreErrorConvertible {
    public var storeError: StoreError {
        switch code & 0xFF {
        // SQLite names the columns, not the index: said in the index's name, as PostgreSQL says it.
        case SQLITE_CONSTRAINT where message.contains("holds.admission"): .conflict("\(message) (\(StoreError.admissionIndex))")
        case SQLITE_CONSTRAINT where message.contains("claims.identity"): .conflict("\(message) (\(StoreError.identityIndex))")
        case SQLITE_CONSTRAINT: .conflict(message)
        default: .unavailable(cause: description)
        }
    }
}

extension PostgresError: StoreErrorConvertible {
    public var storeError: StoreError { StoreError(sqlState: sqlState, message: message) }
}

extension StoreError {
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
}
