import SeatJSON
extension VenueLayout {
    /// Canonical SeatKit layout JSON: fixed member order, one row per line, row-level `zone` and `y` when
    /// all its seats share them. `VenueLayout(json:)` of the result gives an equal layout (same fingerprint).
    /// - Complexity: O(seats).
    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 128 + seatCount * 48)
        w.raw("{")
        w.key("format", first: true); w.string(Self.formatName)
        w.key("version"); w.number(Self.formatVersion)
        w.key("id"); w.string(id)
        w.key("name"); w.string(name)
        if let stage {
            w.key("stage"); w.raw("{")
            w.key("label", first: true); w.string(stage.label)
            w.key("x"); w.number(stage.center.x)
            w.key("y"); w.number(stage.center.y)
            w.key("width"); w.number(stage.width)
            if let depth = stage.depth { w.key("depth"); w.number(depth) }
            w.raw("}")
        }
        w.key("zones"); w.raw("[")
        for (k, z) in zones.enumerated() {
            w.raw(k == 0 ? "\n" : ",\n")
            w.raw("{"); w.key("id", first: true); w.string(z.id); w.key("name"); w.string(z.name)
            w.key("category"); w.string(z.category); w.key("color"); w.string(z.color); w.raw("}")
        }
        w.raw("],\n")
        w.key("rows", first: true); w.raw("[")
        // Tables' rows of seats and areas' rows of places are made from `tables` and `areas`, not written.
        for (r, row) in rows.enumerated() where r < rows.count - tables.count - areas.count {
            w.raw(r == 0 ? "\n" : ",\n")
            let seats = row.seats
            let sharedZone = seats.isEmpty ? nil : zoneIndex(of: seats.lowerBound)
            let rowZone = seats.allSatisfy { zoneIndex(of: $0) == sharedZone } ? sharedZone : nil
            let firstY = seats.isEmpty ? nil : storage.y[seats.lowerBound]
            let rowY = seats.allSatisfy { storage.y[$0] == firstY } ? firstY : nil
            w.raw("{")
            w.key("label", first: true); w.string(row.label)
            if row.id != row.label { w.key("id"); w.string(row.id) }
            if let rowZone { w.key("zone"); w.string(zones[rowZone].id) }
            if let rowY { w.key("y"); w.number(rowY) }
            w.key("seats"); w.raw("[")
            for i in seats {
                if i != seats.lowerBound { w.raw(",") }
                w.raw("{")
                w.key("id", first: true); w.string(seatID(i))
                w.key("label"); w.string(seatLabel(i))
                w.key("x"); w.number(storage.x[i])
                if rowY == nil { w.key("y"); w.number(storage.y[i]) }
                let t = type(of: i)
                if t != .standard { w.key("type"); w.string(t.name) }
                var f = flags(of: i)
                if t == .wheelchair || t == .companion { f.remove(.accessible) }  // implied by the type
                if !f.isEmpty {
                    w.key("flags"); w.raw("[")
                    for (k, name) in f.names.enumerated() { if k > 0 { w.raw(",") }; w.string(name) }
                    w.raw("]")
                }
                if rowZone == nil { w.key("zone"); w.string(zones[zoneIndex(of: i)].id) }
                if let p = partner(of: i) { w.key("partner"); w.string(seatID(p)) }
                w.raw("}")
            }
            w.raw("]}")
        }
        w.raw("\n]")
        if !tables.isEmpty { writeTables(into: &w) }
        if !areas.isEmpty {
            w.raw(",\n"); w.key("areas", first: true); w.raw("[")
            for (k, placed) in areas.enumerated() {
                let a = placed.area
                w.raw(k == 0 ? "\n" : ",\n")
                w.raw("{"); w.key("id", first: true); w.string(a.id); w.key("name"); w.string(a.name)
                if let zone = a.zone { w.key("zone"); w.string(zone) }
                w.key("capacity"); w.number(a.capacity); w.key("mode"); w.string(a.mode.name)
                if case .party(let low, let high) = a.mode { w.key("min"); w.number(low); w.key("max"); w.number(high) }
                w.key("shape"); w.raw("[")
                for (p, point) in a.shape.enumerated() {
                    if p > 0 { w.raw(",") }
                    w.raw("["); w.number(point.x); w.raw(","); w.number(point.y); w.raw("]")
                }
                w.raw("]}")
            }
            w.raw("\n]")
        }
        w.raw("}\n")
        return w.bytes
    }
}

extension VenueLayout {
    /// `"tables":[…]`, a table's seats as their count when they stand where `Table.chairs` puts them.
    func writeTables(into w: inout JSONWriter) {
        w.raw(",\n"); w.key("tables", first: true); w.raw("[")
        for (k, placed) in tables.enumerated() {
            let t = placed.table
            w.raw(k == 0 ? "\n" : ",\n")
            w.raw("{"); w.key("id", first: true); w.string(t.id); w.key("name"); w.string(t.name)
            if let zone = t.zone { w.key("zone"); w.string(zone) }
            w.key("shape"); w.string(t.shape.rawValue)
            w.key("x"); w.number(t.center.x); w.key("y"); w.number(t.center.y)
            w.key("width"); w.number(t.width); w.key("height"); w.number(t.height)
            w.key("mode"); w.string(t.mode.name)
            if case .minimum(let n) = t.mode { w.key("min"); w.number(n) }
            let placedAround = Table.chairs(
                count: t.seats.count, shape: t.shape, center: t.center, width: t.width, height: t.height, tableID: t.id)
            let generated = zip(placedAround, placed.seats).allSatisfy { chair, i in
                chair.id == seatID(i) && chair.label == seatLabel(i) && Float(chair.x) == storage.x[i] && Float(chair.y) == storage.y[i]
                    && flags(of: i).isEmpty && zoneIndex(of: i) == (t.zone.flatMap(zoneIndex(id:)) ?? zoneIndex(of: i))
                    && t.seats.allSatisfy { $0.zone == nil }
            }
            w.key("seats")
            if generated {
                w.number(t.seats.count)
            } else {
                w.raw("[")
                for i in placed.seats {
                    if i != placed.seats.lowerBound { w.raw(",") }
                    w.raw("{"); w.key("id", first: true); w.string(seatID(i)); w.key("label"); w.string(seatLabel(i))
                    w.key("x"); w.number(storage.x[i]); w.key("y"); w.number(storage.y[i])
                    let f = flags(of: i)
                    if !f.isEmpty {
                        w.key("flags"); w.raw("[")
                        for (n, name) in f.names.enumerated() { if n > 0 { w.raw(",") }; w.string(name) }
                        w.raw("]")
                    }
                    w.key("zone"); w.string(zones[zoneIndex(of: i)].id)
                    w.raw("}")
                }
                w.raw("]")
            }
            w.raw("}")
        }
        w.raw("\n]")
    }
}
