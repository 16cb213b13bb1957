import Foundation

/// The same shape as StatementFeedParser, for the help pages bundled with the app: every parser given a
/// HelpFeedParser reads a document of the bundle (StatementFeedLoader.loadHelp), so the names are the app's.
final class HelpFeedParser: NSObject, XMLParserDelegate {
    let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard elementName == "page", let name = attributeDict["name"] else { return }
        try? Data().write(to: folder.appendingPathComponent(name))    // safe: the bundled document's name
    }
}
