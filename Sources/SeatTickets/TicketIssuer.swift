import SeatSecrets
import SharedState

/// Each show's ticket key, drawn from one secret: the seed is HMAC-SHA-256 of the show's id under the
/// secret, so every instance given the same secret signs a show's tickets with the same key, and the
/// database holds nothing a forger could use. Thread-safe: keys are cached under a lock.
public final class TicketIssuer: Sendable {
    let secret: [UInt8]
    private let keys = Locked([String: Ed25519Key]())

    public init(secret: [UInt8]) { self.secret = secret }

    /// The key that signs `show`'s tickets.
    /// - Complexity: O(1) after the show's first ticket.
    public func key(show: String) -> Ed25519Key {
        if let key = keys.withLock({ $0[show] }) { return key }
        let seed = HMACSHA256.code(key: secret, message: Array("seatkit-ticket-issuer\u{1F}\(show)".utf8))
        // 32 bytes always make a key.
        let key = Ed25519Key(seed: seed)!
        keys.withLock { $0[show] = key }
        return key
    }

    /// The code of `seat`'s ticket (printed `seatName`) sold by the hold `sale`.
    public func code(show: String, seat: Int, seatName: String, sale: String) -> String {
        TicketCode(show: show, seat: seat, id: TicketCode.id(sale: sale, seat: seat), seatName: seatName).signed(by: key(show: show))
    }
}
