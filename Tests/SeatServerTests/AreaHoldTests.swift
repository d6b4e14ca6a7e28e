import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatServerTestSupport
import SharedState
import Testing

/// General-admission areas (#53) over HTTP on both stores: a hold takes seats and places together, all
/// or nothing; a whole area and a party's are taken at once or not at all; an area never sells or holds
/// more than its capacity, however many buyers ask at once.
@Suite(.serialized) struct AreaHoldTests {
    static let admin = [("X-Admin-Key", TestServer.adminKey)]

    /// A server with Samples/livehouse.json (16 seats, a 100-place floor, a box of 6 sold whole, a lounge
    /// for one party of 4 to 8) and its show `gig`.
    func livehouse(_ backend: StoreBackend) throws -> TestServer {
        try TestServer.livehouse(
            backend,
            shows: [
                #"{"id":"gig","venueId":"livehouse","startsAt":"2099-12-02T20:00:00+08:00","prices":{"categories":{"standard":"280.00","standing":"180.00","box":"300.00"}}}"#
            ])
    }

    func counts(_ c: HTTPConnection) throws -> [String: [String: Int]] {
        let answer = try c.request("GET", "/v1/shows/gig/areas")
        #expect(answer.status == 200, "\(answer.text)")
        var out: [String: [String: Int]] = [:]
        for a in answer.json?["areas"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
            out[a.text("id")] = ["free", "held", "sold", "capacity"].reduce(into: [:]) { $0[$1] = a[$1]?.intValue }
        }
        return out
    }

    func hold(_ c: HTTPConnection, _ body: String) throws -> HTTPConnection.Response {
        try c.request("POST", "/v1/shows/gig/holds", json: body)
    }

    @Test(arguments: StoreBackend.available) func seatsAndPlacesAreHeldTogetherAllOrNothing(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        #expect(try counts(c)["floor"] == ["free": 100, "held": 0, "sold": 0, "capacity": 100])
        let mixed = try hold(c, #"{"seats":["A-1","A-2"],"areas":{"floor":3}}"#)
        #expect(mixed.status == 201, "\(mixed.text)")
        let seats = mixed.json?["seats"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(seats.filter { $0.hasPrefix("floor:") }.count == 3 && seats.contains("A-1") && seats.contains("A-2"), "\(seats)")
        // 2 × 280 + 3 × 180.
        #expect(mixed.string("total") == "1100.00", "\(mixed.text)")
        #expect(try counts(c)["floor"] == ["free": 97, "held": 3, "sold": 0, "capacity": 100])
        // A taken seat refuses the places asked with it: nothing held.
        let refused = try hold(c, #"{"seats":["A-2","A-3"],"areas":{"floor":2}}"#)
        #expect(refused.status == 409 && refused.string("type") == "/problems/seats-taken", "\(refused.text)")
        #expect(try counts(c)["floor"]?["free"] == 97)
        // Confirmed: the places are sold, one ticket a place, none naming a seat number.
        let token = try #require(mixed.string("token"))
        let confirmed = try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"GA-1"}"#)
        #expect(confirmed.status == 200, "\(confirmed.text)")
        #expect(try counts(c)["floor"] == ["free": 97, "held": 0, "sold": 3, "capacity": 100])
        let tickets = try c.request("GET", "/v1/orders/GA-1/tickets", headers: Self.admin)
        #expect(tickets.status == 200, "\(tickets.text)")
        // Places alone, 4 at a time (the show's limit is 6 a hold), until fewer are left; then one more
        // than are free: a 409 saying how many are.
        var free = 97
        while free >= 4 {
            #expect(try hold(c, #"{"areas":{"floor":4}}"#).status == 201)
            free -= 4
        }
        let over = try hold(c, #"{"areas":{"floor":\#(free + 1)}}"#)
        #expect(over.status == 409 && over.string("type") == "/problems/area-full", "\(over.text)")
        #expect(over.string("detail") == "floor: \(free) of 100 places free, \(free + 1) asked", "\(over.text)")
        #expect(try counts(c)["floor"] == ["free": free, "held": 97 - free, "sold": 3, "capacity": 100])
    }

    @Test(arguments: StoreBackend.available) func aWholeAreaAndAPartysAreTakenAtOnce(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        let box = try hold(c, #"{"areas":{"box-a":1}}"#)
        #expect(box.status == 201 && box.json?["seats"]?.arrayValue?.count == 6 && box.string("total") == "1800.00", "\(box.text)")
        let again = try hold(c, #"{"areas":{"box-a":1}}"#)
        #expect(again.status == 409 && again.string("detail") == "box-a: A号包厢 Box A is taken", "\(again.text)")
        let two = try hold(c, #"{"areas":{"box-a":2}}"#)
        #expect(two.status == 422 && two.string("detail")?.hasPrefix("areas.box-a: A号包厢 Box A is sold whole") == true, "\(two.text)")
        // A place named by id beside its area asked for: one claim each, not two (a second was a store error).
        #expect(try c.request("DELETE", "/v1/holds/\(try #require(box.string("token")))").status == 204)
        let named = try hold(c, #"{"seats":["box-a:1"],"areas":{"box-a":1}}"#)
        #expect(named.status == 201 && named.json?["seats"]?.arrayValue?.count == 6, "\(named.text)")
        let floor = try hold(c, #"{"seats":["floor:1","floor:2"],"areas":{"floor":2}}"#)
        #expect(floor.status == 201 && Set(floor.json?["seats"]?.arrayValue?.compactMap(\.stringValue) ?? []).count == 4, "\(floor.text)")
        // The lounge: one party of 4 to 8.
        let small = try hold(c, #"{"areas":{"lounge":3}}"#)
        #expect(small.status == 422 && small.string("detail") == "areas.lounge: 派对厅 Lounge takes one party of 4 to 8 people, not 3", "\(small.text)")
        let party = try hold(c, #"{"areas":{"lounge":5}}"#)
        #expect(party.status == 201 && party.json?["seats"]?.arrayValue?.count == 5, "\(party.text)")
        let other = try hold(c, #"{"areas":{"lounge":4}}"#)
        #expect(other.status == 409 && other.string("type") == "/problems/area-full", "\(other.text)")
        let answer = try c.request("GET", "/v1/shows/gig/areas")
        let lounge = answer.json?["areas"]?.arrayValue?.compactMap(\.objectValue).first { $0.text("id") == "lounge" }
        #expect(lounge?["open"]?.boolValue == false && lounge?["held"]?.intValue == 5 && lounge?["min"]?.intValue == 4, "\(answer.text)")
        // Released, the party's lounge opens again.
        #expect(try c.request("DELETE", "/v1/holds/\(try #require(party.string("token")))").status == 204)
        #expect(try hold(c, #"{"areas":{"lounge":8}}"#).status == 201)
    }

    @Test(arguments: StoreBackend.available) func aHoldsPlacesAreSetByCountAsAStepperDoes(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        let made = try hold(c, #"{"seats":["A-1"]}"#)
        let token = try #require(made.string("token"))
        func set(_ body: String) throws -> HTTPConnection.Response { try c.request("POST", "/v1/holds/\(token)/seats", json: body) }
        func places(_ r: HTTPConnection.Response, _ area: String) -> Int {
            r.json?["seats"]?.arrayValue?.compactMap(\.stringValue).filter { $0.hasPrefix(area + ":") }.count ?? -1
        }
        let two = try set(#"{"areas":{"floor":2}}"#)
        #expect(two.status == 200 && places(two, "floor") == 2 && two.string("total") == "640.00", "\(two.text)")
        let kept = two.json?["seats"]?.arrayValue?.compactMap(\.stringValue).filter { $0.hasPrefix("floor:") } ?? []
        let one = try set(#"{"areas":{"floor":1}}"#)
        #expect(one.status == 200 && places(one, "floor") == 1 && kept.contains(one.json?["seats"]?.arrayValue?.compactMap(\.stringValue).last ?? ""))
        #expect(try counts(c)["floor"]?["held"] == 1)
        // A seat and places in one change; then none of the floor, the seat kept.
        let both = try set(#"{"add":["A-2"],"areas":{"floor":3}}"#)
        #expect(both.status == 200 && places(both, "floor") == 3 && both.json?["seats"]?.arrayValue?.count == 5, "\(both.text)")
        let none = try set(#"{"areas":{"floor":0}}"#)
        #expect(none.status == 200 && places(none, "floor") == 0 && none.json?["seats"]?.arrayValue?.count == 2, "\(none.text)")
        // The party grows and shrinks from its first places; a size the lounge does not take is refused.
        #expect(try set(#"{"areas":{"lounge":4}}"#).status == 200)
        let six = try set(#"{"areas":{"lounge":6}}"#)
        #expect(six.status == 200 && places(six, "lounge") == 6, "\(six.text)")
        let nine = try set(#"{"areas":{"lounge":9}}"#)
        #expect(nine.status == 422 && nine.string("detail") == "areas.lounge: 派对厅 Lounge takes one party of 4 to 8 people, not 9", "\(nine.text)")
        // More than are free: nothing changes.
        let other = try hold(c, #"{"areas":{"floor":6}}"#)
        #expect(other.status == 201)
        var free = try counts(c)["floor"]?["free"] ?? 0
        while free >= 6 {
            #expect(try hold(c, #"{"areas":{"floor":6}}"#).status == 201)
            free -= 6
        }
        let over = try set(#"{"areas":{"floor":\#(free + 1)}}"#)
        #expect(over.status == 409 && over.string("type") == "/problems/area-full", "\(over.text)")
        #expect(places(try c.request("GET", "/v1/holds/\(token)"), "lounge") == 6)
        #expect(try counts(c)["floor"]?["free"] == free)
    }

    @Test(arguments: StoreBackend.available) func theCounterSellsPlacesByCount(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        // Three standing places and a seat at the counter, the server picking which places.
        let sold = try c.request(
            "POST", "/v1/shows/gig/sales", json: #"{"seats":["A-1"],"areas":{"floor":3},"orderRef":"DOOR-1","payment":"cash"}"#, headers: Self.admin)
        #expect(sold.status == 201, "\(sold.text)")
        #expect(try counts(c)["floor"] == ["free": 97, "held": 0, "sold": 3, "capacity": 100])
        // Places alone; the box whole.
        let box = try c.request("POST", "/v1/shows/gig/sales", json: #"{"areas":{"box-a":1},"orderRef":"DOOR-2","payment":"card"}"#, headers: Self.admin)
        #expect(box.status == 201, "\(box.text)")
        #expect(try counts(c)["box-a"]?["sold"] == 6)
        // More than are free: 409 area-full, nothing sold, the order not made.
        let over = try c.request("POST", "/v1/shows/gig/sales", json: #"{"areas":{"floor":98},"orderRef":"DOOR-3","payment":"cash"}"#, headers: Self.admin)
        #expect(over.status == 409 && over.string("type") == "/problems/area-full", "\(over.text)")
        #expect(try counts(c)["floor"]?["sold"] == 3)
        #expect(try c.request("GET", "/v1/orders/DOOR-3", headers: Self.admin).status == 404)
        // A reservation and places together is refused by name.
        let both = try c.request(
            "POST", "/v1/shows/gig/sales", json: #"{"reservation":"r_x","areas":{"floor":1},"orderRef":"DOOR-4","payment":"cash"}"#, headers: Self.admin)
        #expect(both.status == 422 && both.text.contains("give seats and places, or a reservation, not both"), "\(both.text)")
    }

    @Test(arguments: StoreBackend.available) func badAreaRequestsNameTheFieldAndChangeNothing(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let c = try server.connection()
        let cases: [(String, Int, String)] = [
            (#"{"areas":{"pit":2}}"#, 422, "areas.pit: no area \"pit\" (this venue has floor, box-a, lounge)"),
            (#"{"areas":{"floor":0}}"#, 422, "areas.floor: expected a whole number of places, 1 to 1000, got 0"),
            (#"{"areas":{"floor":-3}}"#, 422, "areas.floor: expected a whole number of places, 1 to 1000, got -3"),
            (#"{"areas":{"floor":"2"}}"#, 422, "areas.floor: expected a whole number of places, 1 to 1000, got \"2\""),
            (#"{"areas":{}}"#, 422, "areas: no area named (leave it out, or name an area and a count)"),
            (#"{"areas":[2]}"#, 422, "areas: expected an object of area ids and counts, got an array"),
        ]
        for (body, status, detail) in cases {
            let answer = try hold(c, body)
            #expect(answer.status == status && answer.string("detail") == detail, "\(body): \(answer.text)")
        }
        // A seat-only show has no areas to ask for.
        let other = try TestServer(backend: backend)
        let plain = try other.connection().request("POST", "/v1/shows/show/holds", json: #"{"areas":{"floor":2}}"#)
        #expect(plain.status == 422 && plain.string("detail") == "areas.floor: venue cinema-hall-3 has no general-admission area", "\(plain.text)")
        #expect(try counts(c)["floor"]?["free"] == 100)
        #expect(try server.availability("gig").counts.held == 0)
    }

    /// 60 buyers at once, each asking for 1 to 4 places of the 100-place floor and retrying a refusal
    /// until the floor says it is full: exactly 100 go, never more than the capacity, and every hold whole.
    @Test(arguments: StoreBackend.available) func aCrowdNeverTakesMoreThanTheCapacity(backend: StoreBackend) throws {
        let server = try livehouse(backend)
        let taken = Locked(0), holds = Locked([Int]())
        DispatchQueue.concurrentPerform(iterations: 60) { k in
            guard let c = try? server.connection() else { return }
            let want = 1 + k % 4
            for _ in 0..<20 {
                guard let answer = try? hold(c, #"{"areas":{"floor":\#(want)}}"#) else { return }
                if answer.status == 201 {
                    let got = answer.json?["seats"]?.arrayValue?.count ?? 0
                    taken.withLock { $0 += got }
                    holds.withLock { $0.append(got) }
                    return
                }
                if answer.status == 409, answer.string("detail")?.contains(" 0 of 100") == true { return }
                if answer.status == 409, let d = answer.string("detail"), let free = Int(d.split(separator: " ")[1]), free < want { return }
            }
        }
        let counts = try counts(try server.connection())["floor"] ?? [:]
        print("crowd on \(backend): \(holds.withLock { $0.count }) holds, \(taken.withLock { $0 }) places; the floor says \(counts)")
        #expect(taken.withLock { $0 } <= 100)
        #expect(counts["held"] == taken.withLock { $0 } && counts["free"] == 100 - taken.withLock { $0 })
        #expect(holds.withLock { $0 }.allSatisfy { (1...4).contains($0) })
        // Whatever is left is too little for anyone who still wanted (each asked for 1 to 4).
        #expect(counts["free"]! < 4, "\(counts)")
    }

    /// The same crowd split between two instances on one PostgreSQL store: each picks places from what
    /// it knows, so they collide, and the store's key on (show, seat) refuses the second of each pair;
    /// the buyer asks again. Exactly the capacity goes, and both instances end up saying so.
    @Test func twoInstancesNeverTakeMoreThanTheCapacity() throws {
        guard StoreBackend.available.contains(.postgres) else { return }
        let a = try livehouse(.postgres)
        let b = try TestServer(backend: .postgres, seed: false, storeURL: a.storeURL)
        let taken = Locked(0), collisions = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 60) { k in
            guard let c = try? (k % 2 == 0 ? a : b).connection() else { return }
            let want = 1 + k % 4
            for _ in 0..<40 {
                guard let answer = try? hold(c, #"{"areas":{"floor":\#(want)}}"#) else { return }
                if answer.status == 201 {
                    taken.withLock { $0 += answer.json?["seats"]?.arrayValue?.count ?? 0 }
                    return
                }
                if answer.string("type") == "/problems/seats-taken" { collisions.withLock { $0 += 1 }; continue }
                if answer.status == 409, let d = answer.string("detail"), let free = Int(d.split(separator: " ")[1]), free < want { return }
                usleep(20_000)
            }
        }
        // Each instance follows the other's changes: both say the same once caught up.
        var seen: [[String: Int]] = []
        for _ in 0..<50 {
            seen = [try counts(try a.connection())["floor"] ?? [:], try counts(try b.connection())["floor"] ?? [:]]
            if seen[0] == seen[1] { break }
            usleep(100_000)
        }
        print("two instances: \(taken.withLock { $0 }) places taken, \(collisions.withLock { $0 }) collisions refused by the store; they say \(seen)")
        #expect(seen[0] == seen[1], "\(seen)")
        #expect(taken.withLock { $0 } <= 100 && seen[0]["held"] == taken.withLock { $0 } && seen[0]["free"] == 100 - taken.withLock { $0 })
        #expect(seen[0]["free"]! < 4, "\(seen)")
    }
}
