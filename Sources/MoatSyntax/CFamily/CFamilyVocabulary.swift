// Word lists the shallow parser uses to tell types, qualifiers and attribute macros apart without headers.

enum CVocabulary {
    /// Built-in type words: kept in type text, never recorded as type references.
    static let builtinTypes: Set<String> = [
        "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "bool", "_Bool", "_Complex",
        "__int128", "wchar_t", "char8_t", "char16_t", "char32_t", "id", "instancetype", "auto", "__signed", "__unsigned",
    ]

    /// Storage classes and specifiers that are not part of the type text.
    static let storage: Set<String> = [
        "static", "extern", "inline", "__inline", "__inline__", "register", "thread_local", "_Thread_local", "__thread",
        "constexpr", "consteval", "constinit", "mutable", "virtual", "explicit", "friend", "typename", "__block",
        "__unused", "__extension__", "_Noreturn", "NS_INLINE", "CF_INLINE", "FOUNDATION_EXPORT", "FOUNDATION_EXTERN",
        "UIKIT_EXTERN", "CF_EXPORT", "CF_EXTERN", "NS_VALID_UNTIL_END_OF_SCOPE", "__private_extern__", "IBOutlet",
        "IBInspectable",
    ]

    /// Qualifiers dropped from type text (`const` is remembered separately).
    static let qualifiers: Set<String> = [
        "const", "volatile", "restrict", "__restrict", "__restrict__", "_Nullable", "_Nonnull", "_Null_unspecified",
        "_Nullable_result", "nullable", "nonnull", "null_unspecified", "null_resettable", "__nullable", "__nonnull",
        "__null_unspecified", "__weak", "__strong", "__unsafe_unretained", "__autoreleasing", "__kindof", "__covariant",
        "__contravariant", "_Atomic", "__bridge", "__bridge_transfer", "__bridge_retained", "NS_NOESCAPE",
        "__attribute_unused__",
    ]

    /// Objective-C method type qualifiers (`(out NSError **)`).
    static let methodQualifiers: Set<String> = ["in", "out", "inout", "bycopy", "byref", "oneway"]

    /// Lower-case attribute spellings; upper-case macros are recognised by shape (`isMacroLike`).
    static let knownAttributes: Set<String> = [
        "__attribute__", "__attribute", "__declspec", "alignas", "_Alignas", "__asm__", "__asm", "asm", "__deprecated",
        "__deprecated_msg", "__dead2", "__pure2", "__printflike", "__scanflike", "__result_use_check", "__unavailable",
        "noexcept", "IBOutletCollection",
    ]

    static let typeofWords: Set<String> = ["typeof", "__typeof__", "__typeof", "decltype", "_Atomic"]

    /// Words that start statements or are values, never a declaration's type.
    static let statementKeywords: Set<String> = [
        "if", "else", "for", "while", "do", "switch", "case", "default", "return", "break", "continue", "goto", "sizeof",
        "typedef", "new", "delete", "throw", "try", "catch", "this", "using", "namespace", "template", "operator",
        "static_assert", "_Static_assert", "alignof", "_Alignof", "__alignof__", "typeid", "static_cast", "dynamic_cast",
        "reinterpret_cast", "const_cast", "nil", "Nil", "NULL", "YES", "NO", "true", "false", "nullptr", "self", "super",
        "co_await", "co_return", "co_yield", "public", "private", "protected", "__null",
    ]

    /// `NS_ENUM(NSInteger, Name) { ... }` and friends.
    static let enumMacros: Set<String> = [
        "NS_ENUM", "NS_OPTIONS", "NS_CLOSED_ENUM", "NS_ERROR_ENUM", "CF_ENUM", "CF_OPTIONS", "CF_CLOSED_ENUM",
        "NS_SWIFT_ENUM",
    ]

    /// ALL_CAPS with an underscore (`API_AVAILABLE`, `NS_SWIFT_NAME`, `UIKIT_EXTERN`, `__IOS_AVAILABLE`).
    static func isMacroLike(_ word: String) -> Bool {
        var hasUnderscore = false
        var letters = 0
        for byte in word.utf8 {
            if byte == UInt8(ascii: "_") {
                hasUnderscore = true
            } else if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
                letters += 1
            } else if !(byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
                return false
            }
        }
        return hasUnderscore && letters >= 2
    }

    static func isAttributeName(_ word: String) -> Bool {
        knownAttributes.contains(word) || isMacroLike(word)
    }

    /// Words that are never part of a type's text.
    static func isNonTypeWord(_ word: String) -> Bool {
        storage.contains(word) || qualifiers.contains(word) || knownAttributes.contains(word)
    }

    static func startsUppercase(_ word: String) -> Bool {
        guard let first = word.utf8.first else { return false }
        return first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z")
    }

    /// A single word in parentheses that is probably a type: `(CGFloat)`, `(size_t)`, `(NSInteger)`.
    static func looksLikeTypeName(_ word: String) -> Bool {
        if builtinTypes.contains(word) || word == "BOOL" || word == "Class" || word == "SEL" { return true }
        if word.hasSuffix("_t") || word.hasSuffix("Ref") { return true }
        return startsUppercase(word)
    }
}
