import Foundation

/// Parses the exchange-rate feed downloaded from legacy-rates.example.com.
final class RatesFeedParser: NSObject, XMLParserDelegate {
    private(set) var rates: [String: Double] = [:]

    func parseLegacyFeed(_ data: Data) {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = true
        parser.delegate = self
        parser.parse()
    }

    func parseFeed(_ data: Data) {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = self
        parser.parse()
    }
}
