/// A seat's state for one show. Raw values are what the availability storage holds (4 bits a seat).
public enum SeatStatus: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case available = 0
    /// In someone's unexpired hold.
    case held = 1
    case sold = 2
    /// Taken out of sale (house seats, broken seat, distancing).
    case blocked = 3

    /// The one-letter code of the compact encoding.
    public var code: UInt8 {
        switch self {
        case .available: return UInt8(ascii: "a")
        case .held: return UInt8(ascii: "h")
        case .sold: return UInt8(ascii: "s")
        case .blocked: return UInt8(ascii: "b")
        }
    }

    public init?(code: UInt8) {
        switch code {
        case UInt8(ascii: "a"): self = .available
        case UInt8(ascii: "h"): self = .held
        case UInt8(ascii: "s"): self = .sold
        case UInt8(ascii: "b"): self = .blocked
        default: return nil
        }
    }

    public var name: String {
        switch self {
        case .available: return "available"
        case .held: return "held"
        case .sold: return "sold"
        case .blocked: return "blocked"
        }
    }

    public init?(name: String) {
        guard let s = SeatStatus.allCases.first(where: { $0.name == name }) else { return nil }
        self = s
    }

    public var description: String { name }

    public func localizedName(_ language: Language) -> String {
        switch (self, language) {
        case (.available, .chinese): return "可选"
        case (.held, .chinese): return "已锁定"
        case (.sold, .chinese): return "已售"
        case (.blocked, .chinese): return "不可售"
        case (.available, .english): return "available"
        case (.held, .english): return "held"
        case (.sold, .english): return "sold"
        case (.blocked, .english): return "not for sale"
        }
    }
}

/// How many seats are in each status; kept up to date on every change, in O(1).
public struct StatusCounts: Sendable, Hashable {
    public var available = 0
    public var held = 0
    public var sold = 0
    public var blocked = 0

    public init() {}

    public subscript(status: SeatStatus) -> Int {
        get {
            switch status {
            case .available: return available
            case .held: return held
            case .sold: return sold
            case .blocked: return blocked
            }
        }
        set {
            switch status {
            case .available: available = newValue
            case .held: held = newValue
            case .sold: sold = newValue
            case .blocked: blocked = newValue
            }
        }
    }

    public var total: Int { available + held + sold + blocked }
}
