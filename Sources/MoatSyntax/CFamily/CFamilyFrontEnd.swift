/// Objective-C, Objective-C++, C and C++ front end (placeholder until the real lexer/parser lands).
public enum CFamilyFrontEnd {
    public static func parse(source: String, path: String, language: SourceLanguage) -> CodeFile {
        CodeFile(path: path, language: language, source: source, declarations: [], statements: [], comments: [],
                 typeReferences: [], imports: [])
    }
}
