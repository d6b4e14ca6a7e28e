import CLibPQ
import SeatDomain
import Foundation
import SharedState

/// A PostgreSQL error with its SQLSTATE: `23505` is a unique violation (the seat is taken), class `08`
/// and a dropped connection are outages (the store reconnects on the next use).
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public var sqlState: String
    public var message: String
    public var description: String { "PostgreSQL error \(sqlState): \(message)" }
    public var isUniqueViolation: Bool { sqlState == "23505" }
    public var isConnectionFailure: Bool { sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") || sqlState.isEmpty }
    /// The connection failed, or the server is no longer a primary (25006, read-only: a standby
    /// answered in the middle of a failover). A shard is down then, not for a statement's own error.
    public var meansTheDatabaseIsGone: Bool { isConnectionFailure || sqlState == "25006" }
}

/// A statement's parameter: text (nil is NULL), or an array sent in the binary format.
enum PostgresParameter {
    case text(String?)
    case array(PostgresArray)
    /// A value already in the binary format (its statement casts it to its type).
    case binary([UInt8])
}

/// Rows copied out of a libpq result (text format), and how many rows a command touched.
struct PostgresRows {
    var rows: [[String?]]
    var affected: Int
    func text(_ row: Int, _ column: Int) -> String { rows[row][column] ?? "" }
    func int(_ row: Int, _ column: Int) -> Int64 { Int64(rows[row][column] ?? "") ?? 0 }
}

/// One libpq connection with lazily prepared statements, used by one thread at a time (the store hands
/// connections out from a pool). After a failure that broke the connection it reconnects on next use,
/// so the server recovers by itself when the database comes back.
/// `@unchecked Sendable`: a libpq handle (a C pointer) used by one thread at a time: a store's pool
/// (`PostgresStore.idle`, a `Locked`) hands it to one caller and takes it back; a listener's is its
/// follower's alone. The compiler cannot see that discipline through the pointer.
public final class PostgresConnection: CommitListener, @unchecked Sendable {
    let conninfo: String
    let schema: String?
    private(set) var handle: OpaquePointer?
    private var prepared: Set<String> = []
    /// Composite types' OIDs looked up on this session (`compositeOIDs`), forgotten when it reconnects.
    private var knownTypes: [PostgresComposite: (type: UInt32, array: UInt32)] = [:]

    /// The database sessions of the store this connection writes for (`PostgresStore.backends`): its own
    /// session's process id is in it while it is connected, so that store's listener knows a
    /// notification this connection sent. Nil for a connection that sends none (a listener's).
    let backends: Locked<Set<Int32>>?
    /// This connection's session (PostgreSQL's backend process id), 0 when not connected.
    private(set) var backend: Int32 = 0

    init(conninfo: String, schema: String?, backends: Locked<Set<Int32>>? = nil) throws {
        self.conninfo = conninfo
        self.schema = schema
        self.backends = backends
        try connect()
    }

    deinit {
        forgetBackend()
        if let handle { PQfinish(handle) }
    }

    private func forgetBackend() {
        if backend != 0 { backends?.withLock { _ = $0.remove(backend) } }
        backend = 0
    }

    func connect() throws {
        forgetBackend()
        if let handle { PQfinish(handle) }
        prepared = []
        knownTypes = [:]
        handle = PQconnectdb(conninfo)
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let message = handle.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            if let h = self.handle { PQfinish(h) }
            self.handle = nil
            throw PostgresError(sqlState: "08001", message: message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        seatkit_pq_silence(handle)
        backend = PQbackendPID(handle)
        if backend != 0 { backends?.withLock { _ = $0.insert(backend) } }
        if let schema {
            try execute("CREATE SCHEMA IF NOT EXISTS \(Self.identifier(schema))")
            try execute("SET search_path TO \(Self.identifier(schema))")
        }
    }

    /// Reconnects when the last command found the connection broken (the database restarted).
    func ensureConnected() throws {
        if handle == nil || PQstatus(handle) != CONNECTION_OK { try connect() }
    }

    static func identifier(_ name: String) -> String { SQLText.identifier(name) }

    /// A command without parameters (DDL, BEGIN, COMMIT, SAVEPOINT …).
    @discardableResult
    func execute(_ sql: String) throws -> PostgresRows {
        try ensureConnected()
        return try rows(PQexec(handle, sql))
    }

    /// A prepared statement (prepared once per connection under `name`) with text parameters; nil is NULL.
    @discardableResult
    func run(_ name: String, _ sql: String, _ parameters: [String?] = []) throws -> PostgresRows {
        try ensureConnected()
        if !prepared.contains(name) {
            _ = try rows(PQprepare(handle, name, sql, Int32(parameters.count), nil))
            prepared.insert(name)
        }
        // Parameters stay alive as C strings for the duration of the call.
        let cStrings: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.flatMap { strdup($0) } }
        defer { for p in cStrings { free(p) } }
        let values: [UnsafePointer<CChar>?] = cStrings.map { $0.map { UnsafePointer($0) } }
        let result = values.withUnsafeBufferPointer { buffer in
            PQexecPrepared(handle, name, Int32(parameters.count), buffer.baseAddress, nil, nil, 0)
        }
        return try rows(result)
    }

    /// A prepared statement whose parameters are text (nil is NULL) or arrays sent in the binary format
    /// (the statement casts each, `$2::text[]`, so the database knows its type).
    @discardableResult
    func run(_ name: String, _ sql: String, values parameters: [PostgresParameter]) throws -> PostgresRows {
        try ensureConnected()
        if !prepared.contains(name) {
            _ = try rows(PQprepare(handle, name, sql, Int32(parameters.count), nil))
            prepared.insert(name)
        }
        // Each value's bytes (text NUL-terminated) in one buffer, alive for the duration of the call.
        var bytes: [UInt8] = [], offsets: [Int?] = [], lengths: [Int32] = [], formats: [Int32] = []
        for p in parameters {
            switch p {
            case .text(nil):
                offsets.append(nil); lengths.append(0); formats.append(0)
            case .text(let s?):
                offsets.append(bytes.count); lengths.append(0); formats.append(0)
                bytes.append(contentsOf: s.utf8); bytes.append(0)
            case .array(let a):
                let b = a.binary
                offsets.append(bytes.count); lengths.append(Int32(b.count)); formats.append(1)
                bytes.append(contentsOf: b)
            case .binary(let b):
                offsets.append(bytes.count); lengths.append(Int32(b.count)); formats.append(1)
                bytes.append(contentsOf: b)
            }
        }
        let result = bytes.withUnsafeBufferPointer { buffer in
            let values: [UnsafePointer<CChar>?] = offsets.map { o in
                o.map { UnsafeRawPointer(buffer.baseAddress! + $0).assumingMemoryBound(to: CChar.self) }
            }
            return PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 0)
        }
        return try rows(result)
    }

    /// The OIDs of the composite types `seatkit_write` takes and of their arrays, as the search path finds
    /// them (this store's schema's), looked up once a session: the binary format carries them.
    func compositeOIDs() throws -> [PostgresComposite: (type: UInt32, array: UInt32)] {
        try ensureConnected()
        if knownTypes.count == PostgresComposite.allCases.count { return knownTypes }
        let names = PostgresComposite.allCases.map(\.rawValue)
        let rows = try run(
            "type_oids", "SELECT n, t.oid::bigint, t.typarray::bigint FROM unnest($1::text[]) AS n JOIN pg_type t ON t.oid = n::regtype",
            [PostgresArray.text(names).literal])
        for r in 0..<rows.rows.count {
            if let type = PostgresComposite(rawValue: rows.text(r, 0)) { knownTypes[type] = (UInt32(rows.int(r, 1)), UInt32(rows.int(r, 2))) }
        }
        return knownTypes
    }

    /// Copies a result out and frees it; an error result (or none) throws with its SQLSTATE.
    private func rows(_ result: OpaquePointer?) throws -> PostgresRows {
        guard let result else { throw failure(nil) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            let n = Int(PQntuples(result)), m = Int(PQnfields(result))
            var out: [[String?]] = []
            out.reserveCapacity(n)
            for r in 0..<n {
                out.append((0..<m).map { c in PQgetisnull(result, Int32(r), Int32(c)) == 1 ? nil : String(cString: PQgetvalue(result, Int32(r), Int32(c))) })
            }
            let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
            return PostgresRows(rows: out, affected: affected)
        default:
            throw failure(result)
        }
    }

    private func failure(_ result: OpaquePointer?) -> PostgresError {
        var state = "", message = ""
        if let result {
            if let s = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) { state = String(cString: s) }
            message = String(cString: PQresultErrorMessage(result))
        }
        if message.isEmpty, let handle { message = String(cString: PQerrorMessage(handle)) }
        if state.isEmpty && (handle == nil || PQstatus(handle) != CONNECTION_OK) { state = "08006"; prepared = [] }
        return PostgresError(sqlState: state, message: message.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    // — LISTEN / NOTIFY —

    /// Notifications received so far (channel payloads), after waiting up to `milliseconds` for one.
    /// A broken connection throws: reconnected, it would no longer be listening (it once did, and the
    /// shard it listened to stayed unheard after its database came back).
    public func notifications(waiting milliseconds: Int32) throws -> [String] { try heard(waiting: milliseconds).map(\.payload) }

    /// Notifications received so far with the session that sent each (`PGnotify.be_pid`), after waiting
    /// up to `milliseconds` for one.
    func heard(waiting milliseconds: Int32) throws -> [(payload: String, sender: Int32)] {
        guard isConnected else { throw PostgresError(sqlState: "08006", message: "the listening connection was lost") }
        var out = drain()
        if !out.isEmpty { return out }
        let ready = seatkit_pq_wait_readable(handle, milliseconds)
        if ready < 0 { throw PostgresError(sqlState: "08006", message: "socket error while waiting for notifications") }
        if ready > 0 {
            guard PQconsumeInput(handle) == 1 else {
                throw PostgresError(sqlState: "08006", message: String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines))
            }
            out = drain()
        }
        guard isConnected else { throw PostgresError(sqlState: "08006", message: "the listening connection was lost") }
        return out
    }

    var isConnected: Bool { handle != nil && PQstatus(handle) == CONNECTION_OK }

    private func drain() -> [(payload: String, sender: Int32)] {
        var out: [(payload: String, sender: Int32)] = []
        while let n = PQnotifies(handle) {
            out.append((String(cString: n.pointee.extra), n.pointee.be_pid))
            PQfreemem(n)
        }
        return out
    }
}
