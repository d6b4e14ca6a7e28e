import Foundation
import SeatDomain
import SeatHTTP
import SeatJSON
import SeatSecrets
import SeatWire

/// People sign into the console and the door page with a name and a password (and a one-time code
/// when they have one); the answer sets a session cookie (HttpOnly, SameSite=Strict, Secure behind
/// TLS, ending after `--session-minutes`) and gives the token every form sends back
/// (`X-CSRF-Token`). Keys still work for scripts and checkouts. Wrong tries are slowed, then locked
/// out, per name and per address (`SignInGuard`); the answer never says which of name, password or
/// code was wrong, except that a right password still needs its code.
extension SeatAPI {
    func signIn(_ r: HTTPRequest) throws -> HTTPResponse {
        let b = try RequestBody.decode(r, SignInRequest.init(json:))
        guard let store = staff.store else {
            throw Problem(503, "staff-not-kept", "Staff are not kept here", detail: "this server's store keeps no operators (a test's store)")
        }
        if case .wait(let seconds, let locked) = signIn.guardian.check(name: b.name, address: r.clientAddress) {
            let wait = Int(seconds.rounded(.up))
            throw Problem(
                429, locked ? "sign-in-locked" : "sign-in-slowed", locked ? "Signing in is locked for a while" : "Too many wrong tries",
                detail: locked
                    ? "too many wrong passwords for this name or from this address: try again in \(wait / 60 + 1) minutes, or ask a manager"
                    : "a wrong password: try again in \(wait) s", headers: [("Retry-After", String(wait))])
        }
        func failed() -> Problem {
            signIn.guardian.failed(name: b.name, address: r.clientAddress)
            inventory.metrics.count("sign_ins_refused")
            return Problem(401, "sign-in-failed", "Wrong name or password", detail: "the name, password or code is not right")
        }
        try staff.refresh()
        // An unknown name costs the same scrypt as a known one: the time says nothing of who exists.
        let record = staff.record(b.name)
        let digest = record?.passwordDigest ?? Self.decoyDigest
        guard PasswordDigest.verify(b.password, against: digest), let record, record.state == .active, record.passwordDigest != nil,
            let who = staff.operatorNamed(record.name)
        else { throw failed() }
        if let sealed = record.totpSealed {
            guard let code = b.code else {
                throw Problem(401, "code-required", "One-time code required", detail: "\(record.name) signs in with the code of their authenticator app too")
            }
            guard let secret = openTOTP(sealed, name: record.name),
                let step = TOTP.matchingStep(code, secret: secret, at: Self.now() / 1000), signIn.spend(step: step, name: record.name)
            else { throw failed() }
        }
        signIn.guardian.succeeded(name: record.name)
        let now = Self.now(), token = Self.randomHex(32), csrf = Self.randomHex(16)
        let session = StaffSession(
            digest: Secrets.tokenDigest(token), name: record.name, csrf: csrf, createdAt: now, expiresAt: now + Int64(signIn.sessionSeconds * 1000))
        try store.saveSession(session)
        try? store.deleteSessions(name: nil, expiredBefore: now)
        var cookie = "\(SignInDesk.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(signIn.sessionSeconds))"
        if r.header("x-forwarded-proto") == "https" { cookie += "; Secure" }
        return .json(
            201,
            SessionResource(
                name: who.name, role: who.role.rawValue, cinemas: CinemaScope(who.cinemas), csrf: csrf, expiresAt: Timestamp.text(session.expiresAt)),
            headers: [("Set-Cookie", cookie), ("Cache-Control", "no-store")])
    }

    func signOut(_ r: HTTPRequest) throws -> HTTPResponse {
        let expired = "\(SignInDesk.cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"
        if let token = SignInDesk.token(cookie: r.header("cookie")), let store = staff.store {
            let digest = Secrets.tokenDigest(token)
            try store.deleteSession(digest: digest)
            signIn.forget(digest: digest)
        }
        return .empty(204, headers: [("Set-Cookie", expired)])
    }

    /// A form sent with a session cookie (not a key) must carry the session's `X-CSRF-Token`, and an
    /// `Origin`, when given, must be this server's: a page of another site cannot act for a signed-in
    /// clerk (SameSite=Strict already keeps the cookie off its requests in today's browsers).
    func checkSessionForm(_ r: HTTPRequest) throws {
        // Signing in again (as someone else) with an old session's cookie is not a form of that session.
        guard !["GET", "HEAD", "OPTIONS"].contains(r.method), r.path != "/v1/sessions", r.header("x-admin-key") == nil, r.header("authorization") == nil,
            let (_, session) = sessionCaller({ r.header($0) })
        else { return }
        let sameOrigin = r.header("origin").map { origin in r.header("host").map { origin.hasSuffix("://" + $0) } ?? false } ?? true
        guard sameOrigin, let sent = r.header("x-csrf-token"), ConstantTime.equal(Array(sent.utf8), Array(session.csrf.utf8)) else {
            throw Problem(
                403, "csrf-refused", "Not sent by the console",
                detail: "a signed-in form carries the session's X-CSRF-Token and comes from this server's own pages")
        }
    }

    /// A one-time-code secret sealed for `name` (bound to the name: a secret moved to another row does not open).
    func sealTOTP(_ secret: [UInt8], name: String) -> String { webhookBox.seal("totp\u{1F}\(name)\u{1F}" + TOTP.base32(secret)) }

    func openTOTP(_ sealed: String, name: String) -> [UInt8]? {
        guard let text = webhookBox.open(sealed), text.hasPrefix("totp\u{1F}\(name)\u{1F}") else { return nil }
        return TOTP.base32Decode(String(text.dropFirst("totp\u{1F}\(name)\u{1F}".count)))
    }

    /// What an unknown name's password is checked against, so it takes as long as a known one's.
    static let decoyDigest = PasswordDigest.make(UUID().uuidString)
}
