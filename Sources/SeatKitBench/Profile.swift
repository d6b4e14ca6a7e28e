import Foundation
import SeatJSON
import SeatMap

/// `SeatKitBench --phases`: where layout decoding spends its time.
enum Phases {
    static func run(_ layout: VenueLayout) {
        let bytes = layout.jsonBytes()
        let parse = measure(batches: 3) { consume(try! JSONParser.parse(bytes)) }
        let tree = try! JSONParser.parse(bytes)
        let build = measure(batches: 3) { consume(try! VenueLayout(jsonValue: tree).seatCount) }
        print("parse \(formatTime(parse)), convert+validate \(formatTime(build))")
    }
}
