import Testing
@testable import CollectionLayout

@Suite struct AxisTests {
    @Test func uniformAxisIsArithmetic() {
        let a = UniformAxis(count: 10, itemSize: 20, spacing: 5, leadingInset: 10, trailingInset: 7)
        let expectedLength: Double = 10 + 200 + 45 + 7
        #expect(a.contentLength == expectedLength)
        #expect(a.offset(of: 3) == 10 + 3 * 25)
        #expect(a.slot(at: -100) == 0 && a.slot(at: 1e9) == 9)
        #expect(a.index(at: 29) == 0 && a.index(at: 31) == nil)  // item 0 is 10..<30, then a gap to 35
        #expect(a.range(overlapping: 30, 36) == 1..<2)
        #expect(a.range(overlapping: 0, 10) == 0..<0)
        #expect(UniformAxis(count: 0, itemSize: 1).range(overlapping: 0, 100) == 0..<0)
    }

    @Test func variableAxisMatchesPlainSums() {
        var rng = Random(1)
        let sizes = (0..<500).map { _ in rng.double(1, 80).rounded() }
        var axis = VariableAxis(sizes: sizes, spacing: 3, leadingInset: 11, trailingInset: 2)
        var model = sizes
        func offsets() -> [Double] {
            var out: [Double] = [], y = 11.0
            for s in model { out.append(y); y += s + 3 }
            return out
        }
        for round in 0..<200 {
            if round % 2 == 0 { let i = rng.int(500); let s = rng.double(0, 100).rounded(); axis.setSize(s, of: i); model[i] = s }
            let o = offsets()
            let k = rng.int(500)
            #expect(close(axis.offset(of: k), o[k]))
            let lo = rng.double(-50, o[499] + 100), hi = lo + rng.double(0, 400)
            let expected = model.indices.filter { o[$0] < hi && o[$0] + model[$0] > lo }
            let got = axis.range(overlapping: lo, hi)
            if let first = expected.first, let last = expected.last {
                #expect(got == first..<(last + 1), "round \(round): [\(lo), \(hi))")
            } else {
                #expect(got.isEmpty, "round \(round)")
            }
        }
        let sum: Double = model.reduce(0, +)
        let expected: Double = 11 + sum + 3 * 499 + 2
        #expect(close(axis.contentLength, expected))
    }

    @Test func perGapSpacing() {
        let axis = VariableAxis(sizes: [10, 10, 10], gaps: [0, 30])
        #expect(axis.offset(of: 1) == 10 && axis.offset(of: 2) == 50)
        #expect(axis.index(at: 25) == nil && axis.index(at: 55) == 2)
        #expect(axis.contentLength == 60)
    }
}
