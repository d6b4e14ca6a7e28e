import Foundation
import SeatDomain
import SeatSecrets
import SharedState

/// Console sign-ins' state on this instance: the guard against guessing, sessions read lately (a
/// second, so a console's dozen requests a page cost one store read), and each name's last one-time
/// code step (a code is good once). Sessions themselves are the store's: every instance honours them,
/// and ending one ends it everywhere within a second.
/// Lock: `cache`, `usedSteps` (leaves; the store is read outside them).
final class SignInDesk: Sendable {
    let guardian: SignInGuard
    /// How long a session lasts from its sign-in (`--session-minutes`: 8 hours, a shift).
    let sessionSeconds: Double
    private let cache = Locked([String: (session: StaffSession, readAt: Double)]())
    private let usedSteps = Locked([String: Int64]())

    static let cookieName = "sk_session"

    init(sessionSeconds: Double, guardian: SignInGuard = SignInGuard()) {
        self.sessionSeconds = sessionSeconds
        self.guardian = guardian
    }

    /// The session whose token is `token`, unexpired, read from the store at most a second ago.
    func session(token: String, store: any StaffStore, now: Int64) -> StaffSession? {
        let digest = Secrets.tokenDigest(token), t = Double(now) / 1000
        if let hit = cache.withLock({ $0[digest] }), t - hit.readAt < 1 {
            return hit.session.expiresAt > now ? hit.session : nil
        }
        guard let found = (try? store.session(digest: digest)) ?? nil else {
            cache.withLock { $0[digest] = nil }
            return nil
        }
        cache.withLock { c in
            if c.count > 10_000 { c.removeAll() }
            c[digest] = (found, t)
        }
        return found.expiresAt > now ? found : nil
    }

    func forget(digest: String) { cache.withLock { $0[digest] = nil } }

    func forgetAll() { cache.withLock { $0.removeAll() } }

    /// Whether `step` is newer than the last code `name` used (and is then theirs).
    func spend(step: Int64, name: String) -> Bool {
        usedSteps.withLock { used in
            if let last = used[name], step <= last { return false }
            used[name] = step
            return true
        }
    }

    /// The session token in a request's `Cookie` header.
    static func token(cookie: String?) -> String? {
        guard let cookie else { return nil }
        for part in cookie.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces)
            if pair.hasPrefix(cookieName + "=") { return String(pair.dropFirst(cookieName.count + 1)) }
        }
        return nil
    }
}
