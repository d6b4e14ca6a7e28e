import SeatSecrets
import Testing

@testable import SeatTickets

/// Tickets a scanner checks with nothing but the show's public key.
@Suite struct TicketCodeTests {
    func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var it = hex.makeIterator()
        while let a = it.next(), let b = it.next() { out.append(UInt8(String([a, b]), radix: 16)!) }
        return out
    }

    /// RFC 8032 section 7.1, tests 1 and 2: the public key and the (deterministic) signature.
    @Test func ed25519MatchesRFC8032() throws {
        let vectors: [(seed: String, publicKey: String, message: String, signature: String)] = [
            (
                "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
                "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
            ),
            (
                "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
                "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
            ),
        ]
        for v in vectors {
            let key = try #require(Ed25519Key(seed: bytes(v.seed)))
            #expect(key.publicKey == bytes(v.publicKey))
            #if !canImport(CryptoKit)
            #expect(key.sign(bytes(v.message)) == bytes(v.signature))
            #endif
            #expect(Ed25519Key.verify(bytes(v.signature), of: bytes(v.message), publicKey: bytes(v.publicKey)))
            var flipped = bytes(v.signature)
            flipped[10] ^= 1
            #expect(!Ed25519Key.verify(flipped, of: bytes(v.message), publicKey: bytes(v.publicKey)))
            #expect(!Ed25519Key.verify(bytes(v.signature), of: bytes(v.message) + [0], publicKey: bytes(v.publicKey)))
        }
        #expect(Ed25519Key(seed: [1, 2, 3]) == nil)
        #expect(!Ed25519Key.verify([0], of: [], publicKey: bytes(vectors[0].publicKey)))
    }

    @Test func base32RoundTripsAndHasOneSpellingABytes() {
        for n in 0...70 {
            let data = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base32.encode(data)
            #expect(text.utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 50 && $0 <= 55) })
            #expect(Base32.decode(text) == data, "\(n) bytes")
        }
        #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")  // RFC 4648 section 10, unpadded
        #expect(Base32.decode("MZXW6YTBOJ") == nil, "leftover bits that are not zero")
        #expect(Base32.decode("MZXW6YTB0I") == nil, "0 is not a base-32 digit")
    }

    let issuer = TicketIssuer(secret: Array("a secret of the venue's".utf8))

    @Test func aTicketVerifiesWithThePublicKeyAloneAndSaysItsSeat() throws {
        let code = issuer.code(show: "imax-2026-12-24-1930", seat: 12_345, seatName: "A区12排8座", sale: "h_0123456789abcdef01234567")
        let publicKey = issuer.key(show: "imax-2026-12-24-1930").publicKey
        let ticket = try #require(try TicketCode.verified(code, publicKey: publicKey))
        #expect(ticket.show == "imax-2026-12-24-1930" && ticket.seat == 12_345 && ticket.seatName == "A区12排8座")
        #expect(ticket.id == TicketCode.id(sale: "h_0123456789abcdef01234567", seat: 12_345) && ticket.idHex.count == 16)
        // 1 + 8 + 2 + 1 + 20 + 1 + 13 bytes of payload and 64 of signature: under the 120 asked.
        let raw = try #require(Base32.decode(code.dropFirst(3)))
        #expect(raw.count == 110 && code.count == 3 + 176)
        // Typed in lower case or pasted with spaces around, it reads the same.
        #expect(try TicketCode.verified("  " + code.lowercased() + "\n", publicKey: publicKey) == ticket)
        // Another show's key, another secret's key: not this show's ticket.
        #expect(try TicketCode.verified(code, publicKey: issuer.key(show: "imax-2026-12-24-2200").publicKey) == nil)
        #expect(try TicketCode.verified(code, publicKey: TicketIssuer(secret: [1]).key(show: "imax-2026-12-24-1930").publicKey) == nil)
    }

    /// Every single-character change of a code is caught: it no longer reads, or its signature fails.
    @Test func anyChangedCharacterOrCutFails() throws {
        let code = issuer.code(show: "s1", seat: 7, seatName: "7-1", sale: "h_1")
        let publicKey = issuer.key(show: "s1").publicKey
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var chars = Array(code)
        for k in 3..<chars.count {
            let original = chars[k]
            chars[k] = alphabet[(alphabet.firstIndex(of: original)! + 1) % 32]
            let changed = String(chars)
            let verified = try? TicketCode.verified(changed, publicKey: publicKey)
            #expect(verified == nil, "character \(k) changed still verifies")
            chars[k] = original
        }
        for cut in [1, 2, 5, 60, code.count - 4] {
            #expect(throws: TicketCodeError.self, "cut by \(cut)") { try TicketCode.verified(String(code.dropLast(cut)), publicKey: publicKey) }
        }
        #expect(throws: TicketCodeError.notATicket) { try TicketCode.read("https://example.com/t/123") }
        #expect(throws: TicketCodeError.notATicket) { try TicketCode.read("SK1 ABC") }
        var otherFormat = Base32.decode(code.dropFirst(3))!
        otherFormat[0] = 9
        #expect(throws: TicketCodeError.unknownFormat(9)) { try TicketCode.read("SK1" + Base32.encode(otherFormat)) }
    }

    @Test func theIssuerDrawsOneKeyAShowFromItsSecret() {
        let again = TicketIssuer(secret: Array("a secret of the venue's".utf8))
        #expect(again.key(show: "s1").publicKey == issuer.key(show: "s1").publicKey)
        #expect(issuer.key(show: "s1").publicKey != issuer.key(show: "s2").publicKey)
        #expect(TicketCode.id(sale: "h_1", seat: 7) != TicketCode.id(sale: "h_2", seat: 7))
        #expect(TicketCode.id(sale: "h_1", seat: 7) != TicketCode.id(sale: "h_1", seat: 8))
    }
}
