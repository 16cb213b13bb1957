import MoatCore
import MoatSyntax

/// Decoders (issue 14): `JSONSerialization`, `JSONDecoder`, `PropertyListSerialization`, `PropertyListDecoder`
/// return what the data says, so their result carries the data's taints — remote content stays remote. Every
/// call that no entry names passes its inputs through already; these entries say so explicitly and rank
/// first, so that no name-based entry (a predicate, an escaper) can ever decide a decoder's result.
extension Transfers {
    static let decoders: [CallResultRule] = [
        CallResultRule(
            name: "JSON and property-list serialization read",
            match: CallMatch(names: APISpelling(APIs.jsonSerializationRead, APIs.propertyListSerializationRead)),
            effect: .passesThrough, precedence: 5,
            rationale: "JSONSerialization.jsonObject(with:) and PropertyListSerialization.propertyList(from:options:format:) "
                + "return the objects the data describes: as untrusted as the data."),
        CallResultRule(
            name: "Codable decoder",
            match: CallMatch(names: APISpelling(APIs.decodableDecode),
                             receivers: ["JSONDecoder", "PropertyListDecoder", "decoder", "Decoder"]),
            effect: .passesThrough, precedence: 5,
            rationale: "JSONDecoder and PropertyListDecoder decode(_:from:) fill a value with what the data says "
                + "(the receiver must be named as a decoder)."),
    ]
}
