/// Two files of an app that an untrusted name crosses: a scene delegate passes the first query value of
/// the URL it opens to an importer in another file, which writes a file under that name. The dataflow tests
/// of the rules (a rule run with a cross-file context) and of the scanner (the whole pipeline) share them.
public enum CrossFileFixtures {
    /// The scene delegate, `SceneDelegate.swift`. With `cleaner`, the name passes through it first
    /// (`NameCleaner.clean`), and the importer is called on line 8 instead of 7.
    public static func handler(cleaner: String? = nil) -> String {
        let call = cleaner.map { "let stored = \($0)(name)\n        importer.importFile(named: stored, contents: Data())" }
            ?? "importer.importFile(named: name, contents: Data())"
        return """
        class SceneDelegate: UIResponder, UIWindowSceneDelegate {
            let importer = FileImporter()

            func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
                guard let url = URLContexts.first?.url,
                      let name = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value else { return }
                \(call)
            }
        }
        """
    }

    /// The importer, `FileImporter.swift`: writes the name into the documents folder (line 5).
    public static let importer = """
    final class FileImporter {
        func importFile(named name: String, contents: Data) {
            let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
            let destination = folder.appendingPathComponent(name)
            try? contents.write(to: destination)
        }
    }
    """
}
