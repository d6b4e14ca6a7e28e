import Foundation
import SeatJSON
import SharedState
import SeatMap
import SeatWire

/// Paying for the held seats (#52): a checkout with a provider, and where it stands.
extension SeatSession {
    /// Pays for the held seats with `provider` (`stripe`, `wechatpay`, `alipay`; `method` where it has
    /// several): the payment, with what the provider's own SDK needs (Stripe's client secret, WeChat
    /// Pay's code URL or JSAPI parameters, Alipay's QR code or redirect). The hold is then `paying`:
    /// kept until the payment's window ends, unchangeable. Nil with `state.message` saying why.
    public func checkout(provider: String, method: String? = nil, orderRef: String? = nil) async -> PaymentResource? {
        let result = Locked<PaymentResource?>(nil)
        await enqueue { session in
            guard let hold = session.state.hold else { return }
            do throws(APIError) {
                let made = try await session.api.checkout(token: hold.token, provider: provider, method: method, orderRef: orderRef)
                session.state.hold = made.hold
                session.payingHold = made.hold
                session.scheduleExpiry(made.hold)
                result.withLock { $0 = made.payment }
            } catch {
                session.fail(error, seats: hold.seats)
            }
        }.value
        return result.current
    }

    /// Where a payment made by `checkout` stands, as the server says.
    public enum PaymentResult: Sendable, Equatable {
        /// Sold: the provider said paid (`orderRef` as the server named it).
        case paid(orderRef: String?)
        /// Still being paid for, until `expiresAt`.
        case paying(expiresAt: String)
        /// The hold ended unpaid (its window passed, the show was cancelled): the seats went back.
        case ended(String)
        /// The server could not be asked (no network): ask again.
        case unknown(String)
    }

    /// Asks the server where the hold being paid for stands; once sold or ended the session forgets
    /// it and refreshes the picture (the seats turn sold, or free).
    public func paymentResult() async -> PaymentResult {
        let result = Locked<PaymentResult>(.unknown("no hold being paid for"))
        await enqueue { session in
            guard let hold = session.payingHold ?? session.state.hold else { return }
            do throws(APIError) {
                let now = try await session.api.hold(token: hold.token)
                switch now.state {
                case .paying, .active: result.withLock { $0 = .paying(expiresAt: now.expiresAt) }
                case .confirmed: result.withLock { $0 = .paid(orderRef: now.orderRef) }
                case .expired, .released: result.withLock { $0 = .ended(now.state.rawValue) }
                }
            } catch {
                switch error.slug {
                case "hold-confirmed": result.withLock { $0 = .paid(orderRef: hold.orderRef) }
                case "hold-expired", "hold-released", "not-found": result.withLock { $0 = .ended(error.description) }
                default: result.withLock { $0 = .unknown(error.description) }
                }
            }
            guard case .paying = result.current else {
                if case .unknown = result.current { return }
                session.payingHold = nil
                if session.state.hold?.token == hold.token { session.state.hold = nil }
                session.expiryTask?.cancel()
                await session.refreshNow()
                return
            }
        }.value
        return result.current
    }
}
