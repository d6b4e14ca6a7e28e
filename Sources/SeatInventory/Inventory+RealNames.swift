import Foundation
import SeatDomain
import SeatJSON
import SeatMap
import SeatSecrets

/// An attendee as memory keeps it, a seat each: what the store has (the document's keyed hash, the
/// attendee sealed) and what is shown (masked), so no view decrypts.
struct SeatAttendee: Sendable, Hashable {
    /// The keyed hash of the document (`PersonalDataKeys.index(_, purpose: "id")`).
    var identity: String
    /// Name, document and phone, sealed for the show.
    var sealed: String
    var kind: IdentityDocument.Kind
    var nameMask: String
    var idMask: String
    /// The keyed hash of the phone's digits (the show's limit per phone), nil: none given.
    var phoneKey: String?

    var claimFields: (identity: String, attendee: String) { (identity, sealed) }
}

/// An attendee as a buyer gives one: with a hold, its change, its confirm or its checkout.
public struct AttendeeInput: Sendable, Hashable {
    /// The seat (or place) the attendee sits in; a per-order show's one attendee may leave it out.
    public var seat: String?
    public var name: String
    /// An `IdentityDocument.Kind`'s name (`idCard`, `passport`…), checked here.
    public var idType: String
    public var idNumber: String
    public var phone: String?
    public init(seat: String?, name: String, idType: String, idNumber: String, phone: String? = nil) {
        self.seat = seat; self.name = name; self.idType = idType; self.idNumber = idNumber; self.phone = phone
    }
}

/// What anyone but a manager revealing it sees of an attendee: masked (`王*明`, `110***********1234`).
public struct AttendeeView: Sendable, Hashable {
    public var seat: String
    public var name: String
    public var idType: String
    public var idNumber: String
}

/// An attendee checked and sealed, not yet bound to a seat (that is decided under the lock).
struct PreparedAttendee: Sendable {
    var seatID: String?
    var attendee: SeatAttendee
    /// `attendees[k]`: where a refusal points.
    var path: String
}

extension Inventory {
    /// Checks each attendee (its document with its check digit, its name, its phone), then seals it and
    /// keys its document for `show`, outside the lock (AES-GCM and HMAC are ~2 µs an attendee).
    /// Every problem is named by its path (`attendees[1].idNumber: the check character is 3…`).
    func prepareAttendees(_ inputs: [AttendeeInput], show: String) throws(Refusal) -> [PreparedAttendee] {
        var problems: [(path: String, message: String)] = [], out: [PreparedAttendee] = []
        for (k, a) in inputs.enumerated() {
            let path = "attendees[\(k)]"
            let (checked, found) = Self.checked(a, strictPhone: true)
            problems += found.map { (path + "." + $0.path, $0.message) }
            guard found.isEmpty, let (record, document) = checked else { continue }
            let attendee = SeatAttendee(
                identity: personalData.index(document.canonical, purpose: "id"), sealed: personalData.seal(record.text, context: show),
                kind: document.kind, nameMask: PersonName.masked(record.name), idMask: document.masked,
                phoneKey: record.phone.map { personalData.index(Self.phoneForLookup($0), purpose: "phone") })
            out.append(PreparedAttendee(seatID: a.seat, attendee: attendee, path: path))
        }
        if !problems.isEmpty {
            throw Refusal(.invalidAttendee, detail: "\(problems[0].path): \(problems[0].message)", details: [.errors(problems)])
        }
        return out
    }

    /// An attendee checked: its record as it is sealed and its document, or each problem by member
    /// (`idType`, `name`, `idNumber`, `phone`). One rule for holds and attendee books; `strictPhone`: a
    /// hold's phone is digits and `+-()` and spaces only (a book's is judged by its digits).
    static func checked(_ a: AttendeeInput, strictPhone: Bool) -> ((AttendeeRecord, IdentityDocument)?, [(path: String, message: String)]) {
        guard let kind = IdentityDocument.Kind(rawValue: a.idType) else {
            return (nil, [("idType", "expected one of \(IdentityDocument.Kind.allCases.map(\.rawValue).joined(separator: ", "))")])
        }
        var problems: [(path: String, message: String)] = []
        if let problem = PersonName.problem(a.name) { problems.append(("name", problem)) }
        var document: IdentityDocument?
        switch IdentityDocument.check(kind: kind, number: a.idNumber) {
        case .success(let d): document = d
        case .failure(let problem): problems.append(("idNumber", "not a valid \(kind.words.en) number: \(problem)"))
        }
        let digits = a.phone.map { String($0.unicodeScalars.filter { ("0"..."9").contains($0) }.map(Character.init)) }
        if let phone = a.phone, let digits,
            !(6...15).contains(digits.count) || (strictPhone && !phone.allSatisfy({ $0.isNumber || " +-()".contains($0) }))
        {
            problems.append(("phone", "a phone number of 6 to 15 digits"))
        }
        guard let document else { return (nil, problems) }
        let record = AttendeeRecord(name: PersonName.trimmed(a.name), idType: kind.rawValue, idNumber: document.number, phone: digits)
        return ((record, document), problems)
    }

    /// `prepareAttendees` for a live hold's show (found from the read, or in memory); none given, none made.
    func prepareAttendees(_ inputs: [AttendeeInput], forHold token: String, snapshot: HoldSnapshot?) throws(Refusal) -> [PreparedAttendee] {
        guard !inputs.isEmpty else { return [] }
        guard let show = snapshot?.read?.record.showID ?? locked({ m in m.holdShow[token] }) else { return [] }
        return try prepareAttendees(inputs, show: show)
    }

    /// The hold's attendees after `given` is applied to its `seats` (given ones replace the seats' own;
    /// a per-order show's one attendee sits in the hold's first seat), checked against the show's policy
    /// and every other hold and sale of the show. Called under the lock.
    func attendeesAfter(
        _ given: [PreparedAttendee], seats: [SeatIndex], current: [SeatIndex: SeatAttendee], in state: ShowState, m: Memory
    ) throws(Refusal) -> [SeatIndex: SeatAttendee] {
        let policy = state.realName, show = state.record.id
        guard policy.isOn else {
            if given.isEmpty { return [:] }
            throw Refusal.invalid(path: "attendees", "show \(show) does not sell by real name: leave attendees out")
        }
        let own = Set(seats)
        var result = current.filter { own.contains($0.key) }
        if policy.mode == .perOrder {
            // One document for the order: wherever it was, it sits in the first seat now.
            let order = given.last?.attendee ?? current.values.first
            if given.count > 1 { throw Refusal.invalid(path: "attendees", "show \(show) takes one buyer's document an order (一单一证), got \(given.count)") }
            if seats.count > policy.maxTicketsPerId {
                throw Refusal(.purchaseLimit, detail: "show \(show) sells at most \(policy.maxTicketsPerId) tickets an order (one document)")
            }
            result = [:]
            if let order, let first = seats.first { result[first] = order }
        } else {
            for p in given {
                guard let seatID = p.seatID else { throw Refusal.invalid(path: p.path + ".seat", "name the seat this attendee sits in") }
                guard let seat = state.layout.index(ofSeatID: seatID), own.contains(seat) else {
                    throw Refusal.invalid(path: p.path + ".seat", "\(seatID) is not a seat of this hold")
                }
                result[seat] = p.attendee
            }
        }
        // Each document once: in the request, in the hold, and in the show.
        var seen: [String: SeatIndex] = [:]
        for (seat, a) in result.sorted(by: { $0.key < $1.key }) {
            let path = given.first(where: { $0.attendee == a })?.path ?? "attendees"
            if !policy.idTypes.contains(a.kind) {
                let allowed = policy.idTypes.map(\.rawValue).joined(separator: ", ")
                throw Refusal.invalid(path: path + ".idType", "show \(show) takes \(allowed), not \(a.kind.rawValue)")
            }
            if let other = seen[a.identity] {
                throw Refusal(
                    .idAlreadyUsed,
                    detail: "seats \(state.layout.seatID(other)) and \(state.layout.seatID(seat)) have the same document: one ticket a document a show")
            }
            seen[a.identity] = seat
            // The hold's own seats, before and after the change, are its own to move a document between.
            if let taken = state.seatOfIdentity[a.identity], !own.contains(taken), current[taken] == nil {
                throw Refusal(
                    .idAlreadyUsed,
                    detail:
                        "seat \(state.layout.seatID(seat)): this document already has seat \(state.layout.seatID(taken)) of show \(show), held or sold (one a show)"
                )
            }
        }
        try checkPurchaseLimits(result, own: own.union(current.keys), in: state, m: m)
        return result
    }

    /// The show's limit per phone, and a per-ticket show's limit per document over its tour's shows
    /// (those this instance has in memory). Called under the lock.
    func checkPurchaseLimits(_ result: [SeatIndex: SeatAttendee], own: Set<SeatIndex>, in state: ShowState, m: Memory) throws(Refusal) {
        let policy = state.realName, show = state.record.id
        if let most = policy.maxTicketsPerPhone {
            for phone in Set(result.values.compactMap(\.phoneKey)) {
                let elsewhere = state.attendees.filter { !own.contains($0.key) && $0.value.phoneKey == phone }.count
                let here = result.values.filter { $0.phoneKey == phone }.count
                if elsewhere + here > most {
                    throw Refusal(.purchaseLimit, detail: "show \(show) sells at most \(most) tickets to one phone number")
                }
            }
        }
        guard policy.mode == .perTicket, let tour = policy.tour else { return }
        let others = m.shows.values.filter { $0 !== state && $0.realName.tour == tour }
        for a in result.values {
            let count = 1 + others.filter { $0.seatOfIdentity[a.identity] != nil }.count
            if count > policy.maxTicketsPerId {
                throw Refusal(
                    .purchaseLimit, detail: "tour \(tour) sells at most \(policy.maxTicketsPerId) tickets to one document over its shows (\(a.idMask))")
            }
        }
    }

    /// Why a real-name hold cannot be sold yet: its seats without an attendee (nil: it can).
    /// Called under the lock.
    func missingAttendees(_ seats: [SeatIndex], in state: ShowState, attendees given: [SeatIndex: SeatAttendee]? = nil) -> Refusal? {
        guard state.realName.isOn, !seats.isEmpty else { return nil }
        let map = given ?? state.attendees
        let missing = state.realName.mode == .perOrder ? (map[seats[0]] == nil ? [seats[0]] : []) : seats.filter { map[$0] == nil }
        guard !missing.isEmpty else { return nil }
        let names = missing.map { state.layout.seatID($0) }
        let what = state.realName.mode == .perOrder ? "the buyer's identity document (一单一证)" : "an attendee for each seat (一票一证)"
        return Refusal(
            .attendeesRequired,
            detail: "show \(state.record.id) sells by real name: give \(what) with the hold or its confirm; without one: \(names.joined(separator: ", "))",
            details: [.seats(names)])
    }

    /// `ticket`, whose change binds `bound`: the store's refusal of a document another instance bound
    /// at the same moment names the seat it was for (the database's detail names the document's hash).
    static func namingSeats(_ ticket: CommitTicket?, _ bound: [SeatIndex: SeatAttendee], layout: VenueLayout, show: String) -> CommitTicket? {
        guard let ticket, !bound.isEmpty else { return ticket }
        return ticket.explained { error in
            guard case .conflict(let message) = StoreError(error), StoreError(error).isIdentityInUse else { return error }
            let seat = bound.first { message.contains($0.value.identity) }.map { layout.seatID($0.key) }
            return Refusal(
                .idAlreadyUsed,
                detail:
                    "seat \(seat ?? "of this hold"): this document already has a ticket or a held seat for show \(show) (taken at the same moment elsewhere)")
        }
    }

    /// The seats of a live hold whose attendee changes, as the commit writes them: their claims go and
    /// come back with the new attendee (`status` held, or sold for a confirm that names them).
    static func rebound(
        from current: [SeatIndex: SeatAttendee], to wanted: [SeatIndex: SeatAttendee], seats: [SeatIndex], holdID: String, status: SeatStatus
    ) -> (delete: [Int], insert: [Claim]) {
        var delete: [Int] = [], insert: [Claim] = []
        for seat in seats where current[seat] != wanted[seat] {
            delete.append(seat)
            insert.append(Claim(seat: seat, status: status, holdID: holdID, identity: wanted[seat]?.identity, attendee: wanted[seat]?.sealed))
        }
        return (delete, insert)
    }

    /// The hold's attendees as shown: masked, in seat order.
    func attendeeViews(_ seats: [SeatIndex], in state: ShowState) -> [AttendeeView] {
        state.attendees.isEmpty ? [] : Self.attendeeViews(seats, state.attendees, layout: state.layout)
    }

    static func attendeeViews(_ seats: [SeatIndex], _ map: [SeatIndex: SeatAttendee], layout: VenueLayout) -> [AttendeeView] {
        seats.compactMap { seat in
            map[seat].map { AttendeeView(seat: layout.seatID(seat), name: $0.nameMask, idType: $0.kind.rawValue, idNumber: $0.idMask) }
        }
    }

    /// An attendee from its claim as the store keeps it (masks made by opening it once, at load).
    func attendee(fromClaim claim: Claim, show: String) -> SeatAttendee? {
        guard let identity = claim.identity, let sealed = claim.attendee else { return nil }
        guard let record = opened(attendee: sealed, show: show), let kind = IdentityDocument.Kind(rawValue: record.idType) else {
            // Sealed under a key this server no longer has: the document still counts, shown as unknown.
            return SeatAttendee(identity: identity, sealed: sealed, kind: .idCard, nameMask: "?", idMask: "?", phoneKey: nil)
        }
        return SeatAttendee(
            identity: identity, sealed: sealed, kind: kind, nameMask: PersonName.masked(record.name), idMask: IdentityDocument.mask(record.idNumber),
            phoneKey: record.phone.map { personalData.index(Self.phoneForLookup($0), purpose: "phone") })
    }
}

extension Inventory {
    /// Sets the attendees of a live buyer's hold (`PUT /v1/holds/{token}/attendees`): each given one
    /// binds its seat (a per-order show's one document its first seat); seats not named keep theirs.
    /// Refused while the hold is being paid for.
    public func setAttendees(token plain: String, _ attendees: [AttendeeInput]) throws(Refusal) -> HoldView {
        let (view, ticket) = try beginSetAttendees(token: plain, attendees)
        if let ticket { try wait(ticket) }
        return view
    }

    package func beginSetAttendees(token plain: String, _ attendees: [AttendeeInput]) throws(Refusal) -> (HoldView, CommitTicket?) {
        let token = Secrets.tokenDigest(plain)
        let snapshot = try readHold(tokenDigest: token)
        let prepared = try prepareAttendees(attendees, forHold: token, snapshot: snapshot)
        return try lockedForHold(token) { (m: Memory) throws(Refusal) -> (HoldView, CommitTicket?) in
            let (state, hold) = try activeHold(token, snapshot: snapshot, in: m)
            try Self.refuseWhilePaying(hold)
            guard state.realName.isOn else {
                throw Refusal.invalid(path: "attendees", "show \(state.record.id) does not sell by real name: its holds have no attendees")
            }
            let current = state.attendees(of: hold.seats)
            let wanted = try attendeesAfter(prepared, seats: hold.seats, current: current, in: state, m: m)
            let rebound = Self.rebound(from: current, to: wanted, seats: hold.seats, holdID: hold.record.id, status: .held)
            guard !rebound.delete.isEmpty else { return (view(hold, in: state, token: plain), nil) }
            let ticket = try apply(
                state, in: m, changes: [], insert: rebound.insert, delete: rebound.delete, holds: [hold.record],
                log: LogEntry(action: "attendees", holdID: hold.record.id))
            for (seat, a) in wanted { state.bind(seat, a) }
            return (view(hold, in: state, token: plain), Self.namingSeats(ticket, wanted, layout: state.layout, show: state.record.id))
        }
    }
}
