import Foundation
import LoopbackHTTP
import SeatJSON
import SeatSecrets
import SeatServerTestSupport
import Testing

@testable import SeatServer

/// People sign in with a name and password (#56): a session cookie (HttpOnly, SameSite=Strict, Secure
/// behind TLS, expiring), forms refused without the session's CSRF token or from another origin,
/// wrong passwords slowed and locked per name and per address, one-time codes with a skewed clock
/// (±1 step) and never twice, and a disabled clerk's session refused on the other instance.
@Suite struct SignInTests {
    static let password = "北城影城的夜班收银员"

    static func server(_ backend: StoreBackend = .sqlite, sessionMinutes: Double = 480) throws -> TestServer {
        try TestServer(backend: backend) { $0.sessionMinutes = sessionMinutes }
    }

    static func send(
        _ s: TestServer, _ method: String, _ path: String, _ body: String = "", headers: [(String, String)] = [], source: String? = nil
    ) throws -> HTTPConnection.Response {
        try HTTPConnection(port: s.port, source: source).request(
            method, path, headers: headers + [("Content-Type", "application/json")], body: Array(body.utf8))
    }

    static func makeClerk(_ s: TestServer, name: String = "li.wei") throws {
        let made = try send(
            s, "POST", "/v1/operators", #"{"name":"\#(name)","role":"boxoffice","cinemas":"all","password":"\#(password)"}"#,
            headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(made.status == 201 && made.json?["password"]?.boolValue == true, "\(made.text)")
    }

    static func signIn(_ s: TestServer, _ name: String = "li.wei", _ password: String = password, code: String? = nil, source: String? = nil)
        throws -> HTTPConnection.Response
    {
        let body = #"{"name":"\#(name)","password":"\#(password)"\#(code.map { #","code":"\#($0)""# } ?? "")}"#
        return try send(s, "POST", "/v1/sessions", body, source: source)
    }

    static func cookie(_ r: HTTPConnection.Response) -> String? {
        r.headers["set-cookie"].flatMap { $0.split(separator: ";").first.map(String.init) }
    }

    @Test(arguments: StoreBackend.available) func aClerkSignsInAndFormsNeedTheSessionsToken(backend: StoreBackend) throws {
        let s = try Self.server(backend)
        try Self.makeClerk(s)
        let r = try Self.signIn(s)
        #expect(r.status == 201, "\(r.text)")
        let setCookie = try #require(r.headers["set-cookie"])
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Max-Age=28800") && !setCookie.contains("Secure"))
        let cookie = try #require(Self.cookie(r)), csrf = try #require(r.string("csrf"))
        #expect(r.string("role") == "boxoffice" && !r.text.contains(cookie.dropFirst("sk_session=".count)))
        #expect(try Self.send(s, "GET", "/v1/operators/me", headers: [("Cookie", cookie)]).string("name") == "li.wei")
        // Behind TLS (the proxy says so) the cookie is Secure.
        #expect(
            try Self.send(s, "POST", "/v1/sessions", #"{"name":"li.wei","password":"\#(Self.password)"}"#, headers: [("X-Forwarded-Proto", "https")])
                .headers["set-cookie"]?.contains("; Secure") == true)
        // A form without the token, or from another site's page, is refused; with it, it works.
        let sale = #"{"seats":["5-1"],"orderRef":"BOX-7","payment":"cash"}"#
        let bare = try Self.send(s, "POST", "/v1/shows/show/sales", sale, headers: [("Cookie", cookie)])
        #expect(bare.status == 403 && bare.string("type") == "/problems/csrf-refused")
        let forged = try Self.send(
            s, "POST", "/v1/shows/show/sales", sale, headers: [("Cookie", cookie), ("X-CSRF-Token", csrf), ("Origin", "https://evil.example")])
        #expect(forged.status == 403 && forged.string("type") == "/problems/csrf-refused")
        #expect(try Self.send(s, "POST", "/v1/shows/show/sales", sale, headers: [("Cookie", cookie), ("X-CSRF-Token", csrf)]).status == 201)
        let order = try Self.send(s, "GET", "/v1/orders/BOX-7", headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(order.json?["parts"]?.arrayValue?.first?.objectValue?["operator"]?.stringValue == "li.wei", "\(order.text)")
        // Signed out: the cookie is cleared and the session ends.
        let out = try Self.send(s, "DELETE", "/v1/sessions/current", headers: [("Cookie", cookie), ("X-CSRF-Token", csrf)])
        #expect(out.status == 204 && out.headers["set-cookie"]?.contains("Max-Age=0") == true)
        #expect(try Self.send(s, "GET", "/v1/operators/me", headers: [("Cookie", cookie)]).status == 401)
    }

    @Test func wrongPasswordsAreSlowedPerNameAndPerAddress() throws {
        let s = try Self.server()
        try Self.makeClerk(s)
        try Self.makeClerk(s, name: "wang.fang")
        for k in 1...4 { #expect(try Self.signIn(s, "li.wei", "wrong-password-\(k)", source: "127.0.0.3").status == 401) }
        // The fifth try comes too soon: refused unchecked, even with the right password, saying when.
        let slowed = try Self.signIn(s, source: "127.0.0.4")
        #expect(slowed.status == 429 && slowed.string("type") == "/problems/sign-in-slowed" && slowed.headers["retry-after"] == "1")
        // The address that guessed is slowed for another name too; another address for another name is not.
        #expect(try Self.signIn(s, "wang.fang", source: "127.0.0.3").status == 429)
        #expect(try Self.signIn(s, "wang.fang", source: "127.0.0.5").status == 201)
        Thread.sleep(forTimeInterval: 1.1)
        #expect(try Self.signIn(s, source: "127.0.0.4").status == 201)
        // An unknown name is answered as a wrong password (nothing says who exists).
        let unknown = try Self.signIn(s, "nobody", source: "127.0.0.6")
        #expect(unknown.status == 401 && unknown.string("detail") == "the name, password or code is not right")
    }

    /// The guard's whole schedule on a clock of its own: 3 free failures, waits of 1, 2, 4, 8 s, the
    /// eighth failure locking for 15 minutes, everything forgotten 15 minutes after the last.
    @Test func theGuardSlowsThenLocksThenForgets() {
        let clock = ManualClock()
        let guardian = SignInGuard(now: { clock.now })
        var waits: [Double] = []
        for _ in 1...8 {
            if case .wait(let seconds, _) = guardian.check(name: "li", address: "a") { clock.now += seconds }
            #expect(guardian.check(name: "li", address: "a") == .allowed)
            guardian.failed(name: "li", address: "a")
            if case .wait(let seconds, _) = guardian.check(name: "li", address: "a") { waits.append(seconds) } else { waits.append(0) }
        }
        #expect(waits == [0, 0, 0, 1, 2, 4, 8, 900])
        #expect(guardian.check(name: "li", address: "elsewhere") == .wait(seconds: 900, locked: true))
        #expect(guardian.check(name: "other", address: "a") == .wait(seconds: 900, locked: true))
        clock.now += 900
        #expect(guardian.check(name: "li", address: "a") == .allowed)
        guardian.failed(name: "li", address: "a")
        #expect(guardian.check(name: "li", address: "a") == .allowed, "forgotten: the count began again")
    }

    @Test func aOneTimeCodeIsAcceptedOneStepOffAndOnlyOnce() throws {
        let s = try Self.server()
        try Self.makeClerk(s)
        let setUp = try Self.send(s, "PATCH", "/v1/operators/li.wei", #"{"totp":true}"#, headers: [("X-Admin-Key", TestServer.adminKey)])
        let uri = try #require(setUp.string("totpUri"))
        #expect(setUp.json?["totp"]?.boolValue == true)
        let base32 = try #require(uri.split(separator: "secret=").last?.split(separator: "&").first.map(String.init))
        let secret = try #require(TOTP.base32Decode(base32))
        #expect(try Self.signIn(s).string("type") == "/problems/code-required")
        let now = Int64(Date().timeIntervalSince1970)
        // A phone 30 s slow: its code is the previous step's, accepted once.
        let behind = TOTP.code(secret: secret, at: now - 30)
        #expect(try Self.signIn(s, code: behind, source: "127.0.0.7").status == 201)
        #expect(try Self.signIn(s, code: behind, source: "127.0.0.8").status == 401, "a code is good once")
        // Two steps off is refused.
        #expect(try Self.signIn(s, code: TOTP.code(secret: secret, at: now + 90), source: "127.0.0.9").status == 401)
        #expect(try Self.signIn(s, code: TOTP.code(secret: secret, at: now + 30), source: "127.0.0.10").status == 201)
        // The log says it was set up, by whom; never the secret.
        let log = try Self.send(s, "GET", "/v1/staff/log", headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(log.text.contains("one-time code set up") && !log.text.contains(base32))
    }

    @Test func aSessionEndsWhenItsTimeIsUp() throws {
        let s = try Self.server(sessionMinutes: 0.02)
        try Self.makeClerk(s)
        let cookie = try #require(Self.cookie(try Self.signIn(s)))
        #expect(try Self.send(s, "GET", "/v1/operators/me", headers: [("Cookie", cookie)]).status == 200)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try Self.send(s, "GET", "/v1/operators/me", headers: [("Cookie", cookie)]).status == 401)
    }

    /// A clerk disabled on one instance: their session is refused on the other within a second; a new
    /// password ends their sessions.
    @Test(.enabled(if: StoreBackend.available.contains(.postgres))) func aDisabledClerksSessionEndsOnEveryInstance() throws {
        let a = try Self.server(.postgres)
        let b = try a.sibling()
        try Self.makeClerk(a)
        var cookie: String?
        let started = Date()
        while cookie == nil && Date().timeIntervalSince(started) < 3 { cookie = Self.cookie(try Self.signIn(b)) }
        let session = try #require(cookie)
        #expect(try Self.send(b, "GET", "/v1/operators/me", headers: [("Cookie", session)]).status == 200)
        let disabled = Date()
        #expect(try Self.send(a, "PATCH", "/v1/operators/li.wei", #"{"state":"disabled"}"#, headers: [("X-Admin-Key", TestServer.adminKey)]).status == 200)
        while try Self.send(b, "GET", "/v1/operators/me", headers: [("Cookie", session)]).status != 401 && Date().timeIntervalSince(disabled) < 3 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let took = Date().timeIntervalSince(disabled)
        print("SignInTests: a disabled clerk's session refused on the other instance after \(Int(took * 1000)) ms")
        #expect(took < 1)
        #expect(try Self.signIn(b).status == 401)
    }
}

/// A clock a test moves by hand.
final class ManualClock: @unchecked Sendable {
    var now: Double = 1_796_000_000
}
