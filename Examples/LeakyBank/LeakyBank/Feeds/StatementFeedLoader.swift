import Foundation

/// The statement feed: an XML document the bank's server sends, listing the month's attachments. It is
/// parsed here; what the parser finds is handled by the delegate types in StatementFeedParser.swift and
/// HelpFeedParser.swift, which never see where the document came from.
final class StatementFeedLoader {
    let session: URLSession
    let helpParser = HelpFeedParser()

    init(session: URLSession) {
        self.session = session
    }

    func refresh(from feedURL: URL) {
        session.dataTask(with: feedURL) { data, _, _ in
            guard let data else { return }
            let parser = XMLParser(data: data)
            parser.delegate = StatementFeedParser()    // the server's document: its callbacks get the server's names
            parser.parse()
        }.resume()
    }

    func loadHelp() {
        guard let url = Bundle.main.url(forResource: "help-feed", withExtension: "xml"),
              let parser = XMLParser(contentsOf: url) else { return }
        parser.delegate = helpParser    // safe: only ever given the app's own document
        parser.parse()
    }
}
