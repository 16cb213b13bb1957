import MoatCore
import MoatSyntax

/// XML documents (issue 14 item 1): the delegate callbacks of an `XMLParser` receive the document's content
/// (element names, attributes, text, CDATA). When the file parses a document that carries a remote or
/// untrusted taint (`parser.parse()` on a parser made from it: `XMLParser(data: downloaded)`), the content
/// parameters of the file's callbacks are sources of the same kind, with the document's origin in their
/// description. A parser whose document the engine cannot see, or a document of the app's bundle, makes
/// no source. When the parser's delegate is an instance of a type the function can name (`parser.delegate =
/// FeedParserDelegate()`, `self`, a local or property declared with the type, `[[FeedDelegate alloc] init]`,
/// `[parser setDelegate:handler]`), the file's facts say so (`XMLDelegateUse`) and the linker makes the
/// callbacks of that type, in the files that implement it, sources of the document's kind
/// (`DataflowContext.xmlDocuments`).
enum XMLDocuments {
    /// The call that parses: its receiver's taints are the document's.
    static let parseCalls = APISpelling(swift: ["parse"], objc: ["parse"])
    /// The receiver is a parser: its chain of names ends with one of these, or its declared type mentions
    /// one of `parserTypes`.
    static let parserReceivers = ["parser", "Parser"]
    static let parserTypes = APIs.xmlParserInit.classes
    /// Delegate callbacks and the indexes of their parameters that carry the document's content.
    static let callbacks: [(functions: APISpelling, indexes: [Int])] = [
        (APISpelling(swift: [APIs.xmlParserDelegateCallbacks.swift[0]], objc: [APIs.xmlParserDelegateCallbacks.selectors[0]]), [1]),
        (APISpelling(swift: [APIs.xmlParserDelegateCallbacks.swift[1]],
                     objc: [APIs.xmlParserDelegateCallbacks.selectors[1]]), [1, 4]),
        (APISpelling(swift: [APIs.xmlParserDelegateCallbacks.swift[2]],
                     objc: [APIs.xmlParserDelegateCallbacks.selectors[2]]), [1]),
        (APISpelling(swift: [APIs.xmlParserDelegateCallbacks.swift[3]], objc: [APIs.xmlParserDelegateCallbacks.selectors[3]]), [1]),
    ]
    /// The member a parser's delegate is set through (`parser.delegate = x`), and the Objective-C setter.
    static let delegateMember = "delegate"
    static let delegateSetters: Set<String> = [APIs.xmlParserDelegateSetter.selectors[0], "setDelegate"]
    /// The delegate is the parsing object itself (`parser.delegate = self`): the function's own type.
    static let selfName = "self"
    /// Documents of one delegate type one file tells the others about, at most.
    static let maximumUsesPerType = 4
    /// How a source's description names the content.
    static let phrase = "the content of an XML document parsed from"

    static let parseNames: Set<String> = Set(parseCalls.names)
    static let callbackIndexes: [String: [Int]] = {
        var table: [String: [Int]] = [:]
        for (functions, indexes) in callbacks { for name in functions.names { table[name] = indexes } }
        return table
    }()
}
