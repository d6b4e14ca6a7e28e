import Foundation
import SeatDomain
import SeatHTTP
import SeatJSON
import SeatSecrets
import SeatWire

/// A chain's staff at the edge (`docs/STAFF.md`): managers add, change, disable and remove operators
/// and reset their keys; head office's managers group venues into cinemas. A manager of some cinemas
/// manages only operators of those cinemas and gives no one more. Every change is in the staff log
/// with who made it; a key is shown once, in the answer that made it.
extension SeatAPI {
    func createOperator(_ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let b = try RequestBody.decode(r, OperatorRequest.init(json:))
        let store = try staffStore()
        if let problem = OperatorDirectory.nameProblem(b.name) { throw Problem.invalidBody("name: \(problem)") }
        if Self.reservedOperatorNames.contains(b.name) || OperatorDirectory.buyersNames.contains(b.name) {
            throw Problem.invalidBody("name: \(b.name) is kept for the server's own use (the admin key, the console, buyers' own purchases)")
        }
        guard let role = OperatorRole(rawValue: b.role) else { throw Problem.invalidBody("role: one of \(OperatorRole.spelled), not \"\(b.role)\"") }
        try checkCinemas(b.cinemas, for: who, member: "cinemas")
        if let old = staff.record(b.name) {
            throw Problem(
                409, "operator-exists", "That name is taken",
                detail: old.state == .deleted
                    ? "\(b.name) was removed; a name is never given twice (the logs name them)" : "\(b.name) is an operator already")
        }
        let password = try b.password.map { try Self.passwordDigest($0, name: b.name, role: role) }
        let now = Self.now(), key = Self.newOperatorKey()
        let record = StaffRecord(
            name: b.name, role: role.rawValue, cinemas: b.cinemas.ids, keyDigest: OperatorDirectory.digest(key), state: .active, revision: now,
            createdAt: now, changedBy: who.name, passwordDigest: password)
        guard try store.saveStaff(record) else { throw Problem(409, "operator-exists", "That name is taken", detail: "\(b.name) was just made elsewhere") }
        try log(store, who, "operator-created", b.name, "\(role.rawValue), \(Self.words(b.cinemas.ids))", at: now)
        return .json(201, Self.resource(record, key: key), headers: [("Location", "/v1/operators/\(b.name)")])
    }

    func listOperators(by who: Operator) throws -> HTTPResponse {
        _ = try staffStore()
        try staff.refresh()
        return .json(200, staff.records.filter { manages($0, who) }.map { Self.resource($0) })
    }

    func changeOperator(_ name: String, _ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let b = try RequestBody.decode(r, OperatorChange.init(json:))
        let store = try staffStore()
        var record = try managedRecord(name, by: who)
        var said: [String] = []
        if let roleName = b.role {
            guard let role = OperatorRole(rawValue: roleName) else { throw Problem.invalidBody("role: one of \(OperatorRole.spelled), not \"\(roleName)\"") }
            if role.rawValue != record.role { said.append("role \(record.role) → \(role.rawValue)"); record.role = role.rawValue }
        }
        if let cinemas = b.cinemas {
            try checkCinemas(cinemas, for: who, member: "cinemas")
            if cinemas.ids != record.cinemas { said.append("cinemas \(Self.words(record.cinemas)) → \(Self.words(cinemas.ids))"); record.cinemas = cinemas.ids }
        }
        if let state = b.state {
            guard let s = StaffRecord.State(rawValue: state), s != .deleted else {
                throw Problem.invalidBody("state: active or disabled (DELETE /v1/operators/\(name) removes an operator)")
            }
            if s != record.state { said.append(s == .active ? "enabled" : "disabled"); record.state = s }
        }
        if name == who.name && (record.role != staff.record(name)?.role || record.cinemas != staff.record(name)?.cinemas || record.state != .active) {
            throw Problem(409, "own-account", "Not on your own account", detail: "another manager changes your role, cinemas or state")
        }
        var endSessions = record.state == .disabled
        if let password = b.password {
            record.passwordDigest = try Self.passwordDigest(password, name: name, role: OperatorRole(rawValue: record.role) ?? .door)
            said.append("password set")
            endSessions = true
        }
        var totpURI: String?
        if let totp = b.totp {
            if totp {
                let secret = TOTP.newSecret()
                record.totpSealed = sealTOTP(secret, name: name)
                totpURI = TOTP.uri(secret: secret, account: name)
                said.append("one-time code set up")
            } else if record.totpSealed != nil {
                record.totpSealed = nil
                said.append("one-time code removed")
            }
        }
        var key: String?
        if b.resetKey {
            key = Self.newOperatorKey()
            record.keyDigest = OperatorDirectory.digest(key!)
            said.append("key reset")
        }
        guard !said.isEmpty else { return .json(200, Self.resource(record)) }
        let now = Self.now()
        record.revision = max(now, record.revision + 1)
        record.changedBy = who.name
        _ = try store.saveStaff(record)
        if endSessions { try store.deleteSessions(name: name, expiredBefore: 0); signIn.forgetAll() }
        try log(store, who, b.resetKey && said.count == 1 ? "key-reset" : "operator-changed", name, said.joined(separator: "; "), at: record.revision)
        var answer = Self.resource(record, key: key)
        answer.totpUri = totpURI
        answer.totpSvg = totpURI.flatMap { TicketPicture.svg($0, label: "one-time code") }
        return .json(200, answer)
    }

    func deleteOperator(_ name: String, by who: Operator) throws -> HTTPResponse {
        let store = try staffStore()
        var record = try managedRecord(name, by: who)
        if name == who.name { throw Problem(409, "own-account", "Not on your own account", detail: "another manager removes you") }
        record.state = .deleted
        record.keyDigest = nil
        record.revision = max(Self.now(), record.revision + 1)
        record.changedBy = who.name
        _ = try store.saveStaff(record)
        try store.deleteSessions(name: name, expiredBefore: 0)
        signIn.forgetAll()
        try log(store, who, "operator-deleted", name, "\(record.role), \(Self.words(record.cinemas))", at: record.revision)
        return .empty(204)
    }

    func createCinema(_ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let b = try RequestBody.decode(r, CinemaRequest.init(json:))
        let store = try staffStore()
        try requireHeadOffice(who, to: "make cinemas")
        try checkVenues(b.venues, of: nil)
        if let same = staff.cinemas.first(where: { $0.name == b.name }) {
            throw Problem(409, "cinema-exists", "That name is taken", detail: "cinema \(same.id) is called \(b.name)")
        }
        let now = Self.now()
        let cinema = CinemaRecord(id: "c_" + Self.randomHex(6), name: b.name, venues: b.venues, revision: now, createdAt: now)
        _ = try store.saveCinema(cinema)
        try log(store, who, "cinema-created", cinema.id, "\(b.name): \(b.venues.joined(separator: ", "))", at: now)
        return .json(201, Self.resource(cinema), headers: [("Location", "/v1/cinemas/\(cinema.id)")])
    }

    func listCinemas(by who: Operator) throws -> HTTPResponse {
        _ = try staffStore()
        try staff.refresh()
        return .json(200, staff.cinemas.filter { who.actsFor(cinema: $0.id) }.map(Self.resource))
    }

    func changeCinema(_ id: String, _ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let b = try RequestBody.decode(r, CinemaChange.init(json:))
        let store = try staffStore()
        try requireHeadOffice(who, to: "change cinemas")
        try staff.refresh()
        guard var cinema = staff.cinema(id) else { throw Problem.notFound("no cinema \(id)") }
        var said: [String] = []
        if let name = b.name, name != cinema.name {
            if let same = staff.cinemas.first(where: { $0.name == name && $0.id != id }) {
                throw Problem(409, "cinema-exists", "That name is taken", detail: "cinema \(same.id) is called \(name)")
            }
            said.append("name \(cinema.name) → \(name)"); cinema.name = name
        }
        if let venues = b.venues, venues != cinema.venues {
            try checkVenues(venues, of: id)
            said.append("venues \(cinema.venues.joined(separator: ", ")) → \(venues.joined(separator: ", "))"); cinema.venues = venues
        }
        guard !said.isEmpty else { return .json(200, Self.resource(cinema)) }
        cinema.revision = max(Self.now(), cinema.revision + 1)
        _ = try store.saveCinema(cinema)
        try log(store, who, "cinema-changed", id, said.joined(separator: "; "), at: cinema.revision)
        return .json(200, Self.resource(cinema))
    }

    func staffLog(_ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let store = try staffStore()
        let limit =
            try r.query["limit"].map { text -> Int in
                guard let n = Int(text), (1...1000).contains(n) else { throw Problem(400, "bad-query", "Bad query", detail: "limit: 1 to 1000, got \(text)") }
                return n
            } ?? 200
        let visible = Set(staff.records.filter { manages($0, who) }.map(\.name)).union(staff.cinemas.filter { who.actsFor(cinema: $0.id) }.map(\.id))
        let lines = try store.staffLog(limit: who.cinemas == nil ? limit : 1000).filter { who.cinemas == nil || visible.contains($0.subject) }
        return .json(
            200,
            lines.prefix(limit).map {
                StaffLogResource(at: Timestamp.text($0.at), operatorName: $0.operatorName, action: $0.action, subject: $0.subject, detail: $0.detail)
            })
    }

    // MARK: - Rules

    /// Names no stored operator may take: the admin key's, the console's own route, the import's.
    static let reservedOperatorNames: Set<String> = ["admin", "me", "import"]

    private func staffStore() throws -> any StaffStore {
        guard let store = staff.store else {
            throw Problem(503, "staff-not-kept", "Staff are not kept here", detail: "this server's store keeps no operators (a test's store)")
        }
        return store
    }

    /// Whether `who` manages `record`: head office everyone; a manager of some cinemas those whose
    /// cinemas are all theirs.
    func manages(_ record: StaffRecord, _ who: Operator) -> Bool {
        guard let mine = who.cinemas else { return true }
        guard let theirs = record.cinemas else { return false }
        return Set(theirs).isSubset(of: mine)
    }

    /// `name`'s record when `who` manages them: 404 for no one (or removed), 403 naming the cinema
    /// they act for and `who` does not.
    private func managedRecord(_ name: String, by who: Operator) throws -> StaffRecord {
        try staff.refresh()
        guard let record = staff.record(name), record.state != .deleted else { throw Problem.notFound("no operator \(name)") }
        guard manages(record, who) else {
            let outside = record.cinemas?.first { !who.actsFor(cinema: $0) }
            throw Problem.outsideCinemas(who, cinema: outside.map { staff.cinema($0)?.name ?? $0 } ?? "every cinema (head office)")
        }
        return record
    }

    /// Every cinema named exists and `who` acts for it; `all` only from head office.
    private func checkCinemas(_ scope: CinemaScope, for who: Operator, member: String) throws {
        try staff.refresh()
        guard let ids = scope.ids else {
            if who.cinemas != nil { throw Problem.outsideCinemas(who, cinema: "every cinema (head office)") }
            return
        }
        for (k, id) in ids.enumerated() where staff.cinema(id) == nil { throw Problem.invalidBody("\(member)[\(k)]: no cinema \(id)") }
        if let outside = ids.first(where: { !who.actsFor(cinema: $0) }) { throw Problem.outsideCinemas(who, cinema: staff.cinema(outside)?.name ?? outside) }
    }

    /// Every venue exists and is in no other cinema than `cinema`.
    private func checkVenues(_ venues: [String], of cinema: String?) throws {
        try staff.refresh()
        let known = Set(inventory.venueIDs)
        for (k, v) in venues.enumerated() {
            guard known.contains(v) else { throw Problem.invalidBody("venues[\(k)]: no venue \(v)") }
            if let other = staff.cinema(ofVenue: v), other != cinema {
                throw Problem(
                    409, "venue-in-another-cinema", "The venue is another cinema's",
                    detail: "venues[\(k)]: \(v) is in cinema \(staff.cinema(other)?.name ?? other) (\(other)); a venue is in one cinema")
            }
        }
    }

    private func requireHeadOffice(_ who: Operator, to action: String) throws {
        guard who.cinemas == nil else {
            throw Problem(
                403, "head-office-only", "Head office only", detail: "\(who.name) acts for some cinemas and cannot \(action): head office's managers do")
        }
    }

    private func log(_ store: any StaffStore, _ who: Operator, _ action: String, _ subject: String, _ detail: String, at: Int64) throws {
        try store.appendStaffLog(StaffLogLine(at: at, operatorName: who.name, action: action, subject: subject, detail: detail))
        // This instance knows at once; the others within 250 ms (`sk-staff`).
        try staff.refresh(force: true)
    }

    static func resource(_ r: StaffRecord, key: String? = nil) -> OperatorResource {
        OperatorResource(
            name: r.name, role: r.role, cinemas: CinemaScope(r.cinemas), state: r.state.rawValue, changedBy: r.changedBy,
            createdAt: Timestamp.text(r.createdAt), key: key, password: r.passwordDigest != nil, totp: r.totpSealed != nil)
    }

    static func resource(_ c: CinemaRecord) -> CinemaResource {
        CinemaResource(id: c.id, name: c.name, venues: c.venues, createdAt: Timestamp.text(c.createdAt))
    }

    /// A person's password as kept (scrypt), or a 422 naming what is wrong with it.
    static func passwordDigest(_ password: String, name: String, role: OperatorRole) throws -> String {
        if role == .checkout { throw Problem.invalidBody("password: a checkout is a server: it signs in with its key only") }
        if let problem = PasswordDigest.problem(password, name: name) { throw Problem.invalidBody("password: \(problem)") }
        return PasswordDigest.make(password)
    }

    static func words(_ cinemas: [String]?) -> String { cinemas.map { "cinemas " + $0.joined(separator: ", ") } ?? "every cinema" }

    /// 256 random bits: an operator's key (kept as its SHA-256, as the operators file's are).
    static func newOperatorKey() -> String { "sk_op_" + randomHex(32) }

    static func randomHex(_ bytes: Int) -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", g.next() as UInt8) }.joined()
    }
}

extension Problem {
    /// 422 for a body that parses but says something impossible (a cinema that does not exist).
    static func invalidBody(_ detail: String) -> Problem { Problem(422, "invalid-body", "The request body is not valid", detail: detail) }

    /// 403 for an operator acting outside their cinemas: names the cinema, never its data.
    static func outsideCinemas(_ who: Operator, cinema: String) -> Problem {
        Problem(403, "outside-your-cinemas", "Not one of your cinemas", detail: "\(who.name) does not act for \(cinema)")
    }
}
