/// Where a show's events go: in the server, an open Server-Sent Events stream (SeatHTTP's `EventStream`
/// conforms in the API module). The hub writes already framed text and never blocks on a subscriber.
public protocol EventSubscriber: AnyObject, Sendable {
    /// Queues `text` for the subscriber; false once it is gone (closed, or too far behind).
    @discardableResult func send(_ text: String) -> Bool
    /// Ends the subscription from the server's side.
    func close()
    /// Runs `body` once the subscriber has gone, whichever side ended it.
    func whenFinished(_ body: @escaping @Sendable () -> Void)
}
