/// Undoes `Transfer-Encoding: chunked` incrementally: bytes in as they arrive, body bytes out. A chunk
/// boundary can fall anywhere, even inside an event's line, so streams must be decoded before parsing.
public struct ChunkedDecoder: Sendable {
    enum State: Sendable {
        case size, sizeLineEnd
        case data(Int)
        case dataEnd(Int)
        case done
    }
    var state = State.size
    var size = 0
    public private(set) var finished = false

    public init() {}

    /// Decodes what `input` completes; keeps partial framing for the next call.
    public mutating func feed(_ input: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var i = input.startIndex
        while i < input.endIndex {
            let b = input[i]
            switch state {
            case .size:
                if let v = hexValue(b) {
                    size = size * 16 + v; i += 1
                } else if b == 13 || b == 59 {
                    state = .sizeLineEnd; i += 1
                }  // CR, or ';' before extensions
                else if b == 10 {
                    state = size == 0 ? .done : .data(size); size = 0; i += 1
                } else {
                    i += 1
                }
            case .sizeLineEnd:
                if b == 10 { state = size == 0 ? .done : .data(size); size = 0 }
                i += 1
            case .data(let remaining):
                let n = min(remaining, input.endIndex - i)
                out.append(contentsOf: input[i..<(i + n)])
                i += n
                state = remaining - n == 0 ? .dataEnd(2) : .data(remaining - n)
            case .dataEnd(let left):
                i += 1
                state = left - 1 == 0 ? .size : .dataEnd(left - 1)
            case .done:
                finished = true
                return out
            }
        }
        if case .done = state { finished = true }
        return out
    }

    func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case 48...57: return Int(b - 48)
        case 97...102: return Int(b - 87)
        case 65...70: return Int(b - 55)
        default: return nil
        }
    }
}
