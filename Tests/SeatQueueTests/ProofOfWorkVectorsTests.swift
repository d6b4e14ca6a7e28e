import Foundation
import SeatKitTestSupport
import SeatSecrets
import Testing

@testable import SeatQueue

/// The browser solves the waiting room's proof of work with its own SHA-256 (js/proof-of-work.js); this
/// writes what it must agree with (`Tests/Web/Vectors/queue/proof-of-work.json`): digests of texts
/// around the 64-byte block edges, the work of given solutions, and the smallest solution Swift finds.
@Suite struct ProofOfWorkVectorsTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theProofOfWorkVectorsAreWritten() throws {
        let key = Array("vectors key".utf8)
        var challenges: [String] = []
        for (k, show) in ["p", "premiere-2026", "a-show-whose-id-is-rather-long-to-cross-a-block-edge-0123456789"].enumerated() {
            let c = JoinChallenge(showID: show, bits: 8 + 2 * k, issuedAt: 1_797_000_000_000 + Int64(k), nonce: "1f2e3d4c5b6a79\(k)x0a1b2c3d4e5f60\(k)")
            challenges.append(c.token(key: key))
        }
        var texts = ["", "abc", "演唱会"]
        texts += [55, 56, 63, 64, 119, 120].map { String(repeating: "a", count: $0) }
        let digests = texts.map { t -> String in
            var w = JSONWriterLite()
            w.string(t)
            return #"{"text":\#(w.text),"sha256":"\#(SHA256.hex(SHA256.hash(t)))"}"#
        }
        let solved = challenges.map { c -> String in
            let bits = Int(c.split(separator: ".")[2])!
            let works = ["0", "7", "123456", "99999999999999999999"].map { #"{"solution":"\#($0)","bits":\#(ProofOfWork.work(challenge: c, solution: $0))}"# }
            return
                #"{"challenge":"\#(c)","bits":\#(bits),"smallest":"\#(ProofOfWork.solve(challenge: c, bits: bits))","work":[\#(works.joined(separator: ","))]}"#
        }
        let text = "{\"digests\":[\n" + digests.joined(separator: ",\n") + "\n],\n\"challenges\":[\n" + solved.joined(separator: ",\n") + "\n]}\n"
        assertSnapshot(text, named: "proof-of-work.json", in: Self.repo.appendingPathComponent("Tests/Web/Vectors/queue"))
    }
}

/// Just enough JSON string escaping for the vectors (SeatQueueTests does not link SeatJSON).
struct JSONWriterLite {
    var text = ""
    mutating func string(_ s: String) {
        text += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            default: text.unicodeScalars.append(u)
            }
        }
        text += "\""
    }
}
