import CSQLite
import Foundation

/// A failed SQLite call, with the library's message.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    public var code: Int32
    public var message: String
    public init(code: Int32, message: String) { self.code = code; self.message = message }
    public var description: String { "SQLite error \(code): \(message)" }
    /// A UNIQUE or PRIMARY KEY constraint said no: the seat is taken.
    public var isConstraint: Bool { code & 0xFF == SQLITE_CONSTRAINT }

    /// A constraint said no, whichever store said it (the PostgreSQL store reports its refusals so too).
    public static func constraint(_ message: String) -> DatabaseError { DatabaseError(code: SQLITE_CONSTRAINT, message: message) }
}

/// One SQLite connection with a cache of prepared statements. Not thread-safe: the store owns it and
/// serialises access.
/// `@unchecked Sendable`: a C handle reached only under the store's `Locked` box that holds it
/// (`SQLiteStore.connection`, `.reader`), which the compiler cannot see through the pointer.
final class SQLiteDatabase: @unchecked Sendable {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    private static let configured: Int32 = seatkit_sqlite_configure()

    init(path: String) throws {
        _ = Self.configured
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw DatabaseError(code: rc, message: "\(path): \(message)")
        }
        sqlite3_busy_timeout(handle, 5000)
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        for (_, s) in statements { sqlite3_finalize(s) }
        sqlite3_close_v2(handle)
    }

    func error(_ rc: Int32) -> DatabaseError {
        DatabaseError(code: rc, message: String(cString: sqlite3_errmsg(handle)))
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "failed"
            sqlite3_free(message)
            throw DatabaseError(code: rc, message: text)
        }
    }

    /// Runs `sql` with `arguments`, calling `row` for each result row.
    func query(_ sql: String, _ arguments: [SQLValue] = [], row: ((SQLRow) throws -> Void)? = nil) throws {
        try query(sql, bound: arguments, row: row)
    }

    /// `query` with the arguments of any collection (a slice of a batch's values, not a copy).
    func query(_ sql: String, bound arguments: some Collection<SQLValue>, row: ((SQLRow) throws -> Void)? = nil) throws {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
        for (k, value) in arguments.enumerated() {
            let index = Int32(k + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .integer(let v): rc = sqlite3_bind_int64(statement, index, v)
            case .real(let v): rc = sqlite3_bind_double(statement, index, v)
            case .text(let s): rc = sqlite3_bind_text(statement, index, s, -1, seatkit_sqlite_transient())
            case .blob(let bytes):
                rc = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), seatkit_sqlite_transient()) }
            }
            guard rc == SQLITE_OK else { throw error(rc) }
        }
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return }
            guard rc == SQLITE_ROW else { throw error(rc) }
            try row?(SQLRow(statement: statement!))
        }
    }

    func run(_ sql: String, _ arguments: [SQLValue] = []) throws { try query(sql, arguments) }

    var changes: Int { Int(sqlite3_changes(handle)) }

    private func prepared(_ sql: String) throws -> OpaquePointer? {
        if let s = statements[sql] { return s }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK else { throw error(rc) }
        statements[sql] = statement
        return statement
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            // The error that stopped the transaction is the one thrown; a failed rollback adds nothing to it.
            try? run("ROLLBACK")
            throw error
        }
    }
}

enum SQLValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

struct SQLRow {
    let statement: OpaquePointer
    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func text(_ column: Int32) -> String {
        guard let p = sqlite3_column_text(statement, column) else { return "" }
        return String(cString: p)
    }
    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let p = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: count))
    }
}
