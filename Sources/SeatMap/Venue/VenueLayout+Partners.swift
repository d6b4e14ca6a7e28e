extension VenueLayout {
    /// Couple halves must be neighbours in one block and name each other; companions must name a
    /// wheelchair space.
    func checkPartners(into log: inout ProblemLog, path: (SeatIndex) -> String) {
        for i in seatIndices {
            let t = type(of: i)
            let p = partner(of: i)
            switch t {
            case .coupleLeft, .coupleRight:
                guard let p else { log.add(path(i), "couple seat \"\(seatID(i))\" has no partner"); continue }
                let expected = t == .coupleLeft ? i + 1 : i - 1
                let otherType: SeatType = t == .coupleLeft ? .coupleRight : .coupleLeft
                if type(of: p) != otherType {
                    log.add(path(i) + ".partner", "partner \"\(seatID(p))\" of couple seat \"\(seatID(i))\" is not a \(otherType.name) seat")
                } else if partner(of: p) != i {
                    log.add(path(i) + ".partner", "partner \"\(seatID(p))\" does not name \"\(seatID(i))\" back")
                } else if p != expected || blockIndex(of: p) != blockIndex(of: i) {
                    log.add(
                        path(i) + ".partner",
                        "couple seat \"\(seatID(i))\" and its partner \"\(seatID(p))\" must be neighbours in one row, \(t == .coupleLeft ? "left" : "right") half first along the row"
                    )
                }
            case .companion:
                guard let p else { log.add(path(i), "companion seat \"\(seatID(i))\" names no wheelchair space (partner)"); continue }
                if type(of: p) != .wheelchair {
                    log.add(path(i) + ".partner", "partner \"\(seatID(p))\" of companion seat \"\(seatID(i))\" is not a wheelchair space")
                }
            case .wheelchair:
                if let p, type(of: p) != .companion {
                    log.add(path(i) + ".partner", "partner \"\(seatID(p))\" of wheelchair space \"\(seatID(i))\" is not a companion seat")
                }
            case .standard, .emergencyExit, .place:
                if p != nil { log.add(path(i) + ".partner", "only couple, companion and wheelchair seats have a partner") }
            }
        }
    }
}

extension VenueStorage {
    static func computeFingerprint(
        id: String, name: String, stage: Stage?, zones: [Zone], rows: [Row],
        seatIDs: PackedStrings, labelPool: [String], seatLabel: [UInt32],
        x: [Float], y: [Float], zoneOf: [UInt16], typeOf: [UInt8], flagsOf: [UInt8],
        partner: [Int32: Int32], tables: [PlacedTable] = [], areas: [PlacedArea] = []
    ) -> UInt64 {
        var h = FNV1a.hash(id)
        h = FNV1a.hash(name, into: h ^ 1)
        if let stage {
            h = FNV1a.hash(stage.label, into: h ^ 2)
            // `+ 0` folds -0.0 into 0, as the JSON form does.
            h = FNV1a.hash((stage.center.x + 0).bitPattern, into: h)
            h = FNV1a.hash((stage.center.y + 0).bitPattern, into: h)
            h = FNV1a.hash((stage.width + 0).bitPattern, into: h)
            // Only when given, so every layout without one keeps its fingerprint.
            if let depth = stage.depth { h = FNV1a.hash((depth + 0).bitPattern, into: h ^ 6) }
        }
        for z in zones {
            h = FNV1a.hash(z.id + "\u{1}" + z.name + "\u{1}" + z.category + "\u{1}" + z.color, into: h ^ 3)
        }
        for r in rows {
            h = FNV1a.hash(r.id + "\u{1}" + r.label, into: h ^ 4)
            h = FNV1a.hash(UInt64(r.seats.count), into: h)
        }
        h = seatIDs.bytes.withUnsafeBufferPointer { FNV1a.hash($0, into: h ^ 5) }
        for i in 0..<x.count {
            h = FNV1a.hash(UInt64(seatIDs.offsets[i + 1]) << 32 | UInt64(seatLabel[i]), into: h)
            h = FNV1a.hash(UInt64(x[i].bitPattern) << 32 | UInt64(y[i].bitPattern), into: h)
            let packed =
                UInt64(zoneOf[i]) << 48 | UInt64(typeOf[i]) << 40 | UInt64(flagsOf[i]) << 32
                | UInt64(UInt32(bitPattern: typeOf[i] == 0 ? -1 : partner[Int32(i)] ?? -1))
            h = FNV1a.hash(packed, into: h)
        }
        for label in labelPool { h = FNV1a.hash(label, into: h ^ 6) }
        // Only with tables or areas, so every layout without one keeps its fingerprint.
        for placed in tables {
            let t = placed.table
            var mode = t.mode.name
            if case .minimum(let n) = t.mode { mode += "\(n)" }
            h = FNV1a.hash(t.id + "\u{1}" + t.name + "\u{1}" + (t.zone ?? "") + "\u{1}" + t.shape.rawValue + "\u{1}" + mode, into: h ^ 8)
            for v in [t.center.x, t.center.y, t.width, t.height] { h = FNV1a.hash((v + 0).bitPattern, into: h) }
        }
        for placed in areas {
            let a = placed.area
            var mode = a.mode.name
            if case .party(let low, let high) = a.mode { mode += "\(low)-\(high)" }
            h = FNV1a.hash(a.id + "\u{1}" + a.name + "\u{1}" + (a.zone ?? "") + "\u{1}" + mode, into: h ^ 7)
            h = FNV1a.hash(UInt64(a.capacity), into: h)
            for p in a.shape { h = FNV1a.hash((p.x + 0).bitPattern ^ ((p.y + 0).bitPattern &* 31), into: h) }
        }
        return h
    }
}
