import Foundation

/// Saves each attachment the statement feed lists under the name the feed gives it.
final class StatementFeedParser: NSObject, XMLParserDelegate {
    let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard elementName == "attachment", let name = attributeDict["name"] else { return }
        try? Data().write(to: folder.appendingPathComponent(name))    // MOAT-CODE-301: a name from the server's document
    }
}
