import SeatJSON
import SeatMap

/// Every body of the v1 API with a component of its own, in the OpenAPI document's order: the
/// document's `components.schemas`, and what a `$ref` resolves to when a body is checked.
public enum WireContract {
    public static let components: [any WireBody.Type] = [
        ProblemDocument.self, HoldResource.self, HoldRequest.self, ModifyHoldRequest.self, ConfirmRequest.self, ShowResource.self,
        ShowDetails.self, DisplayText.self, ShowEdit.self, CancelRequest.self, MoveRequest.self, ShardsResource.self, Cancellation.self, ShowLog.self,
        ShowRequest.self,
        ReservationResource.self, ReservationRequest.self, SaleRequest.self, OrderResource.self, TicketsResource.self, TicketIssuerResource.self,
        CheckInRequest.self, CheckInResult.self,
        CheckInCountsResource.self,
        RefundRequest.self, ExchangeRequest.self, ExchangeResource.self, SeatViewResource.self, WireSeatID.self,
        PriceTableBody.self, SelectionPolicyBody.self, SeatCounts.self, VenueSummary.self, BestSeats.self, FreeSeatList.self,
        ShowReportResource.self, StatusCountsBody.self, SalesReportResource.self, TakingsResource.self, OrderSearchResource.self, OperatorIdentity.self,
        QueueSettingsRequest.self, QueueResource.self, QueuePlace.self, QueueJoinRequest.self, QueueChallengeResource.self, QueueLanePassesRequest.self,
        QueueLanePasses.self, QueueDrawResource.self,
        CheckoutRequest.self, PaymentResource.self, CheckoutResource.self,
        PaymentOptionsResource.self, PaymentsReportResource.self, WebhookEndpointRequest.self, WebhookEndpointResource.self, WebhookDeliveryResource.self,
        CardSetupResource.self, CardPaymentRequest.self, CardPaymentResource.self, AreaCountsResource.self, ChannelResource.self, ChannelRequest.self,
        SeasonRequest.self, SeasonResource.self, SeasonHoldResource.self, SeasonNightRequest.self, SeasonReportResource.self,
        HoldAttendee.self, AttendeesRequest.self, RevealRequest.self, RevealedAttendeeResource.self, ErasureResource.self,
        TransferRequest.self, AttendeeBookResource.self, BookEntryRequest.self,
        UnboundTicketsResource.self, WaitlistRequest.self, WaitlistResource.self,
        OperatorRequest.self, OperatorChange.self, OperatorResource.self, CinemaRequest.self, CinemaChange.self, CinemaResource.self,
        StaffLogResource.self, SignInRequest.self, SessionResource.self,
    ]

    /// The schema a component name stands for.
    public static func component(_ name: String) -> JSONSchema? { components.first { $0.schemaName == name }?.schema }
}

extension WireBody {
    /// Where `value` breaks this body's schema (empty: it conforms); see `JSONSchema.validate`.
    public static func problems(in value: JSONValue) -> [String] { schema.validate(value, resolving: WireContract.component) }

    /// The body as an object that conforms to the schema, or every way it does not (a client reading
    /// an answer: the schema's checks are the reader's, so a reader never accepts what the document
    /// forbids).
    public static func conformingObject(_ bytes: [UInt8]) throws(WireError) -> JSONObject {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw .malformed(error) }
        let problems = problems(in: value)
        guard problems.isEmpty else {
            var log = ProblemLog()
            for p in problems {
                let (path, message) = p.firstRange(of: ": ").map { (String(p[..<$0.lowerBound]), String(p[$0.upperBound...])) } ?? ("", p)
                log.add(path == "(body)" ? "" : path, "\(message) (a \(schemaName) body)")
            }
            throw .invalid(log.error)
        }
        guard case .object(let o) = value else { throw .notAnObject }
        return o
    }
}

/// Members of an object already checked against its schema: the schema said they are there and of
/// this type, so reading them cannot fail (a missing one reads as empty rather than trapping).
extension JSONObject {
    public func text(_ key: String) -> String { self[key]?.stringValue ?? "" }
    public func optionalText(_ key: String) -> String? { self[key]?.stringValue }
    public func whole(_ key: String) -> Int { self[key]?.intValue ?? 0 }
    public func flag(_ key: String) -> Bool { self[key]?.boolValue ?? false }
    public func texts(_ key: String) -> [String] { (self[key]?.arrayValue ?? []).compactMap(\.stringValue) }
    public func objects(_ key: String) -> [JSONObject] { (self[key]?.arrayValue ?? []).compactMap(\.objectValue) }
    public func object(_ key: String) -> JSONObject { self[key]?.objectValue ?? JSONObject() }
    /// A map of strings (`{"vip":"58.00"}`), in the body's order.
    public func textMap(_ key: String) -> [(String, String)] {
        let o = object(key)
        return zip(o.keys, o.values).map { ($0, $1.stringValue ?? "") }
    }
}
