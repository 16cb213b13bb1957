import MoatCore
import MoatSyntax

// THE table of checks: what makes a value safe on a path. Three ways a check shows up:
// - a call whose result is the checked value (a sanitizer: `Checks.results`, ranked with the transfers);
// - a condition that holds on the path (`if allowed.contains(name)`, `guard name != ".."`): the condition
//   reader (`ConditionFacts`) asks `Checks.conditionCalls`, `validation`, `overflowCheck`...;
// - a call that makes the user confirm before the action (`Checks.confirmations`).
// A check counts when every path to the sink passes it. Whether the checks a value passed are enough for
// a sink is the rule's decision, not the table's.

/// What a call in a condition says about its receiver or arguments when the condition holds (or fails).
enum ConditionCallEffect: Sendable, Hashable {
    /// `a.isEqual(b)`, `[a isEqualToString:b]`: a comparison with `==`.
    case equality
    /// `path.hasPrefix(base)`: a prefix check (on a standardized path, also the standardization), a
    /// fixed `https://…` prefix checks the host; known false with `"."`: no hidden or relative name.
    case prefix
    /// `host.hasSuffix(".example.com")`: the host was checked.
    case suffix
    /// `allowed.contains(name)`: an allowlist; `[".", ".."].contains(name)` known false: the path idiom.
    case membership
    /// `[value isKindOfClass:…]`: a type check of the receiver.
    case typeCheckOfReceiver
    /// `[cls conformsToProtocol:…]`, `cls.isSubclass(of:)`: a class's protocol or superclass check.
    case protocolCheckOfReceiver
    /// `class_conformsToProtocol(cls, …)`: the same check on the first argument.
    case protocolCheckOfFirstArgument
}

struct ConditionCall: Sendable {
    /// Swift base names or first selector pieces, C functions.
    var spelling: APISpelling
    var effect: ConditionCallEffect
    var kinds: Set<FlowKind> = FlowKind.every
}

/// A check recognized by a call's name (or the words of its name).
struct NamedCheck: Sendable {
    var name: String
    var spelling: APISpelling
    var words: WordRule?
    var kinds: Set<FlowKind> = FlowKind.every
    var rationale: String
}

/// How a call confirms with the user.
enum ConfirmationEffect: Sendable, Hashable {
    /// Creating it shows a confirmation: everything after it on the path is confirmed.
    case confirms
    /// Its closures run after the user confirmed (an alert action's handler, an authentication reply).
    case confirmsInHandler
}

struct Confirmation: Sendable {
    var name: String
    /// Matched on the call's name.
    var spelling: APISpelling
    /// Also matched on the base name's text.
    var words: WordRule?
    /// Also matched when the base name is one of these.
    var baseNames: Set<String> = []
    var effect: ConfirmationEffect
    var rationale: String
}

enum Checks {
    // MARK: Sanitizers (ranked with `Transfers.results`)

    static let results: [CallResultRule] = [
        CallResultRule(
            name: "sanitizer-named callee",
            match: CallMatch(words: .wordPrefix("sanitiz")),
            effect: .adds([.escaped, .validated]), precedence: 40,
            rationale: "A function whose name has a word starting with sanitiz (sanitize(_:), sanitizedFileName, sanitizerFor) is "
                + "taken to make its input safe for where it goes: it counts as escaped and validated. A function of the scanned "
                + "file is judged by its summary instead."),
    ]

    // MARK: Conditions

    /// Calls that check their receiver or argument when they appear in a condition.
    static let conditionCalls: [ConditionCall] = [
        ConditionCall(spelling: APISpelling(swift: ["isEqual", "isEqualTo", "elementsEqual"], objc: ["isEqualToString", "isEqualToData"]),
                      effect: .equality),
        ConditionCall(spelling: APISpelling(swift: ["hasPrefix", "starts"]), effect: .prefix),
        ConditionCall(spelling: APISpelling(swift: ["hasSuffix"]), effect: .suffix),
        ConditionCall(spelling: APISpelling(swift: ["contains", "member"], objc: ["containsObject", "containsString", "containsKey"]),
                      effect: .membership),
        ConditionCall(spelling: APISpelling(objc: ["isKindOfClass", "isMemberOfClass"]), effect: .typeCheckOfReceiver),
        ConditionCall(spelling: APISpelling(swift: ["conforms", "isSubclass"], objc: ["conformsToProtocol", "isSubclassOfClass"]),
                      effect: .protocolCheckOfReceiver),
        ConditionCall(spelling: APISpelling(c: ["class_conformsToProtocol"]), effect: .protocolCheckOfFirstArgument),
    ]

    /// Validation calls: a call in a condition whose base name has one of the words (`isValidAccount(_:)`,
    /// `verifySignature`, `isAllowedHost`, `matches(_:)`) or is spelled so (`[predicate evaluateWithObject:x]`)
    /// validates its receiver and arguments, whatever the condition's polarity (the call is the validation step).
    static let validation = NamedCheck(
        name: "validation call in a condition",
        spelling: APISpelling(objc: ["evaluateWithObject"]),
        words: .anyWord(["valid", "validate", "validated", "verify", "verified", "allowed", "trusted", "permitted", "allowlisted",
                         "whitelisted", "allowlist", "whitelist", "matches", "match", "sanitize", "sanitized", "authorized", "authorize",
                         "safe", "evaluate", "contained"]),
        rationale: "An app's own validation functions are named for what they check; a condition that calls one is the check "
            + "(`isContained(in:)`: a containment check of an extracted archive entry's path).")
    static let validationWords: Set<String> = { if case .anyWord(let words)? = validation.words { words } else { [] } }()
    /// A regular-expression match: `s.range(of: pattern, options: .regularExpression)` in a condition.
    static let regexSearch = (name: "range", optionsLabel: "options", option: "regularExpression")

    /// Overflow-checked multiplications: the Swift ones return the checked product
    /// (`multipliedReportingOverflow(by:)`), the C ones write it through their last `&out` argument.
    static let overflowCheck = NamedCheck(
        name: "overflow-checked multiplication",
        spelling: APISpelling(APIs.overflowCheckedMultiplication),
        rationale: "Its operands and its product are overflow-checked (MOAT-CODE-305).")

    /// `value.isEmpty` known false: the value is not empty.
    static let emptinessMember = "isEmpty"
    /// Members that give a URL's host: comparing or looking them up checks the URL's host.
    static let hostMembers: Set<String> = ["host", "hostname"]
    /// Members that give a URL's scheme: finding one equal to a fixed scheme checks the URL's scheme.
    static let schemeMembers: Set<String> = ["scheme"]
    /// Case conversions a scheme is compared through (`url.scheme?.lowercased() == "https"`).
    static let caseFolders: Set<String> = ["lowercased", "uppercased", "lowercaseString", "uppercaseString"]
    /// Fixed URL prefixes compared with `hasPrefix` check the host when they start with this and are
    /// longer than `fixedURLPrefixMinimumLength`.
    static let fixedURLPrefix = "http"
    static let fixedURLPrefixMinimumLength = 9
    /// Names along a path chain that do not change which value is checked (`url.path`, `url.absoluteString`).
    static let pathViews: Set<String> = ["path", "absoluteString", "relativePath", "relativeString", "fileSystemRepresentation",
                                         "absoluteURL"]
    /// Members that measure a value (`data.count`, `[data length]`), read through these views of its bytes.
    static let lengthMembers: Set<String> = ["count", "length", "utf16Count"]
    static let byteViews: Set<String> = ["utf16", "utf8", "bytes"]
    /// Functions that measure their argument.
    static let lengthFunctions = APISpelling(c: ["strlen", "CFDataGetLength", "CFStringGetLength", "strnlen", "wcslen"])

    // MARK: Classes looked up by name

    /// Using a class looked up by name with one of these is a check or a description, not an instantiation
    /// (MOAT-CODE-303 reports any other use).
    static let classInspection = NamedCheck(
        name: "class inspection",
        spelling: APISpelling(
            swift: ["conforms", "isSubclass", "print", "debugPrint", "String", "isEqual", "describing"],
            objc: APIs.classRelationCheck.selectors + APIs.classMembershipCheck.selectors + APIs.selectorResponseCheck.selectors
                + APIs.objectEquality.selectors,
            c: ["class_conformsToProtocol", "NSStringFromClass", APIs.formattedLogC.cFunctions[0], APIs.osLogC.cFunctions[0]]), // NSLog, os_log
        rationale: "Checking, comparing or printing a class creates nothing from it.")

    // MARK: Confirmations

    static let confirmations: [Confirmation] = [
        Confirmation(name: "alert", spelling: APISpelling(APIs.alertCreation),
                     effect: .confirms,
                     rationale: "Creating an alert before an action asks the user."),
        Confirmation(name: "confirm-named callee", spelling: APISpelling(), words: .substring(["confirm", "Confirm", "CONFIRM"]),
                     effect: .confirms,
                     rationale: "A function whose name contains confirm, Confirm or CONFIRM (confirmTransfer(), askToConfirm, "
                        + "showCONFIRMDialog) is taken to ask the user before what follows it."),
        Confirmation(name: "confirming handler",
                     spelling: APISpelling(APIs.alertAction, APIs.localAuthenticationPrompt, APIs.permissionPrompt,
                                           APIs.viewControllerPresentation),
                     baseNames: Set(APIs.alertAction.swiftBaseNames), effect: .confirmsInHandler,
                     rationale: "The handler of an alert action, of an authentication prompt or of a presented controller runs after "
                        + "the user answered."),
    ]

    // MARK: Indexes (built once)

    static let conditionCallsByName: [String: ConditionCall] = {
        var table: [String: ConditionCall] = [:]
        for entry in conditionCalls { for name in entry.spelling.names { table[name] = entry } }
        return table
    }()
    static let overflowCheckerNames: Set<String> = Set(overflowCheck.spelling.names)
    static let overflowCheckersReturningOperands: Set<String> = Set(overflowCheck.spelling.swift)
    static let classInspectionNames: Set<String> = Set(classInspection.spelling.names)
    static let lengthFunctionNames: Set<String> = Set(lengthFunctions.names)
    static let validationCallNames: Set<String> = Set(validation.spelling.names)

    private static func names(_ effect: ConfirmationEffect) -> Set<String> {
        Set(confirmations.filter { $0.effect == effect }.flatMap(\.spelling.names))
    }
    private static func baseNames(_ effect: ConfirmationEffect) -> Set<String> {
        Set(confirmations.filter { $0.effect == effect }.flatMap(\.baseNames))
    }
    private static func substrings(_ effect: ConfirmationEffect) -> [String] {
        confirmations.filter { $0.effect == effect }.flatMap { entry -> [String] in
            if case .substring(let texts)? = entry.words { return texts }
            precondition(entry.words == nil, "confirmations match words by substring only")
            return []
        }
    }
    private static let confirmingNames = names(.confirms)
    private static let confirmingBaseNames = baseNames(.confirms)
    private static let confirmingSubstrings = substrings(.confirms)
    private static let confirmingHandlerNames = names(.confirmsInHandler)
    private static let confirmingHandlerBaseNames = baseNames(.confirmsInHandler)
    private static let confirmingHandlerSubstrings = substrings(.confirmsInHandler)

    /// Whether a call with this name (and base name) has this confirmation effect.
    static func confirms(name: String, baseName: String, _ effect: ConfirmationEffect) -> Bool {
        let isHandler = effect == .confirmsInHandler
        if (isHandler ? confirmingHandlerNames : confirmingNames).contains(name) { return true }
        let baseNames = isHandler ? confirmingHandlerBaseNames : confirmingBaseNames
        if !baseNames.isEmpty, baseNames.contains(baseName) { return true }
        for text in isHandler ? confirmingHandlerSubstrings : confirmingSubstrings where baseName.hasText(text) { return true }
        return false
    }
}
