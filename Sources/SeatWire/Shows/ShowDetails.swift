import SeatJSON

/// What buyers are told about a show.
public enum ShowDetails {}

extension ShowDetails: WireBody {
    public static let schemaName = "ShowDetails"
    public static let schema: JSONSchema = .object(
        [
            "title": .ref(DisplayText.self),
            "film": .ref(DisplayText.self),
            "format": .ref(DisplayText.self),
            "language": .ref(DisplayText.self),
            "hall": .ref(DisplayText.self),
            "notes": .ref(DisplayText.self),
            "poster": .string(pattern: #"^(https://|/)[^\u0000-\u001f\u007f-\u009f]*$"#, maxLength: 300),
            "duration": .integer(minimum: 1, maximum: 1440).described("running time in minutes"),
        ], closed: true
    ).described("what buyers are told about the show").example(
        #"{"title":{"zh":"沙丘：第二部","en":"Dune: Part Two"},"format":"IMAX 2D","language":"English, Chinese subtitles","duration":166}"#)
}

/// Text in Chinese, English or both.
public enum DisplayText {}

extension DisplayText: WireBody {
    public static let schemaName = "DisplayText"
    public static let schema: JSONSchema = JSONSchema().with {
        $0.oneOf = [
            .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, maxLength: 300),
            .object(
                [
                    "zh": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, maxLength: 300),
                    "en": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, maxLength: 300),
                ], closed: true
            ).with { $0.minProperties = 1 },
        ]
    }
}
