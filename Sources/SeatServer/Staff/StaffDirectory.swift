import Foundation
import SeatDomain
import SeatSecrets
import SharedState

/// Who may act, by key: the admin key (fixed at start) and the operators kept in the store, read again
/// whenever their revision moves (`refresh`, every 250 ms on `sk-staff`, and at once after this
/// instance changes one), so a key revoked on one instance stops opening anything on every other within
/// a second. Without a store that keeps staff (a test's), the operators file's operators act as before.
/// Lock: `state` (a leaf; the store is read before it is taken).
final class StaffDirectory: Sendable {
    struct State {
        /// Active operators by their key's digest, and by name.
        var byDigest: [String: Operator] = [:]
        var byName: [String: Operator] = [:]
        var records: [String: StaffRecord] = [:]
        var cinemas: [CinemaRecord] = []
        /// The cinema of each venue in one.
        var cinemaOfVenue: [String: String] = [:]
        var revision: Int64 = -1
    }

    let fixed: OperatorDirectory
    let store: (any StaffStore)?
    private let state = Locked(State())

    init(fixed: OperatorDirectory, store: (any StaffStore)?) {
        self.fixed = fixed
        self.store = store
    }

    /// The operator whose key this is, or nil (a disabled or deleted one's key is nobody's).
    /// - Complexity: one SHA-256 and two table lookups.
    func identify(key: String) -> Operator? {
        let digest = OperatorDirectory.digest(key)
        guard store != nil else { return fixed.identify(digest: digest) }
        if let admin = fixed.identify(digest: digest), admin.name == "admin" { return admin }
        return state.withLock { $0.byDigest[digest] }
    }

    /// The operators file's operators not in the store yet, written there once (the store is the
    /// truth afterwards: a line changed or removed later changes nothing); their names.
    func importFile(now: Int64) throws -> [String] {
        guard let store else { return [] }
        let kept = Set(try store.allStaff().map(\.name))
        var imported: [String] = []
        for (op, digest) in fixed.fileOperators where !kept.contains(op.name) {
            let record = StaffRecord(
                name: op.name, role: op.role.rawValue, cinemas: nil, keyDigest: digest, state: .active, revision: now, createdAt: now,
                changedBy: "import")
            if try store.saveStaff(record) {
                try store.appendStaffLog(
                    StaffLogLine(at: now, operatorName: "import", action: "operator-imported", subject: op.name, detail: "\(op.role.rawValue), every cinema"))
                imported.append(op.name)
            }
        }
        try refresh(force: true)
        return imported
    }

    /// Reads the store's staff again when their revision moved (or `force`).
    func refresh(force: Bool = false) throws {
        guard let store else { return }
        let revision = try store.staffRevision()
        guard force || revision != state.withLock({ $0.revision }) else { return }
        let records = try store.allStaff(), cinemas = try store.cinemas()
        var next = State(revision: revision)
        for r in records {
            next.records[r.name] = r
            guard r.state == .active, let digest = r.keyDigest, let role = OperatorRole(rawValue: r.role) else { continue }
            next.byDigest[digest] = Operator(name: r.name, role: role, cinemas: r.cinemas)
            next.byName[r.name] = next.byDigest[digest]
        }
        next.cinemas = cinemas
        for c in cinemas { for v in c.venues { next.cinemaOfVenue[v] = c.id } }
        state.withLock { $0 = next }
    }

    /// The active operator of that name (a session's), or nil.
    func operatorNamed(_ name: String) -> Operator? { state.withLock { $0.byName[name] } }

    var records: [StaffRecord] { state.withLock { $0.records.values.sorted { $0.name < $1.name } } }
    func record(_ name: String) -> StaffRecord? { state.withLock { $0.records[name] } }
    var cinemas: [CinemaRecord] { state.withLock { $0.cinemas } }
    func cinema(_ id: String) -> CinemaRecord? { state.withLock { $0.cinemas.first { $0.id == id } } }
    /// The cinema running `venue`, or nil.
    func cinema(ofVenue venue: String) -> String? { state.withLock { $0.cinemaOfVenue[venue] } }

    /// The active operators, for the banner (never their keys).
    var operatorNames: [String] {
        guard store != nil else { return fixed.operators.map { "\($0.name) (\($0.role.rawValue))" } }
        return ["admin (manager)"] + records.filter { $0.state == .active }.map { "\($0.name) (\($0.role))" }
    }
}
