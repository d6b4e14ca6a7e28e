import Foundation
import SeatMap

/// The server: store, inventory, API and HTTP daemon, plus the background work (hold expiry every half
/// second, event-stream heartbeats every 15 seconds).
public final class SeatServerApp: @unchecked Sendable {
    public struct Options: Sendable {
        public var port: UInt16 = 8080
        public var anyAddress = false
        /// `sqlite:PATH` (or a plain path).
        public var store = "sqlite:seatkit.db"
        public var adminKey: String
        /// Request threads. Handlers never wait for a commit (the connection is suspended and resumed
        /// by the writer), so a few per core are enough; measured flat from 2 to 32 on 2 cores.
        public var threads = max(ProcessInfo.processInfo.activeProcessorCount * 2, 4)
