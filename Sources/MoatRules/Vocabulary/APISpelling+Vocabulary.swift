import MoatCore

extension APISpelling {
    /// The spellings of vocabulary APIs, as the dataflow tables match calls: Swift base names, Objective-C
    /// selectors, C functions (a Swift spelling that is also a C function is matched as the C function).
    init(_ first: API, _ more: API...) {
        let apis = [first] + more
        var swift: [String] = [], objc: [String] = [], c: [String] = []
        for api in apis {
            swift += api.swiftBaseNames.filter { !api.cFunctions.contains($0) && !swift.contains($0) }
            objc += api.selectors.filter { !objc.contains($0) }
            c += api.cFunctions.filter { !c.contains($0) }
        }
        self.init(swift: swift, objc: objc, c: c)
    }

    /// The spellings of methods the app implements (delegate methods, callbacks), as the source table
    /// matches function declarations: Swift full names with their labels, Objective-C selectors.
    init(implementing first: API, _ more: API...) {
        let apis = [first] + more
        var swift: [String] = [], objc: [String] = []
        for api in apis {
            swift += api.swift.filter { !swift.contains($0) }
            objc += api.selectors.filter { !objc.contains($0) }
        }
        self.init(swift: swift, objc: objc)
    }
}
