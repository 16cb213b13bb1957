/// What the app receives from the network, and what reads the content a URL points to (see `API`).
extension APIs {
    // MARK: Connections and sockets

    /// Data received on an `NWConnection` (Swift and C).
    public static let connectionReceive = API(
        "NWConnection.receive(minimumIncompleteLength:maximumLength:completion:)", classes: ["NWConnection"],
        swift: ["receive(minimumIncompleteLength:maximumLength:completion:)", "receiveMessage(completion:)"],
        cFunctions: ["nw_connection_receive", "nw_connection_receive_message"])

    /// A network connection created to an endpoint (Swift and C).
    public static let connectionCreation = API(
        "NWConnection(host:port:using:)", classes: ["NWConnection"], swift: ["NWConnection(host:port:using:)", "NWConnection(to:using:)"],
        cFunctions: ["nw_connection_create"])

    /// A message received on a WebSocket task, by completion handler.
    public static let webSocketReceiveCallback = API(
        "URLSessionWebSocketTask.receive(completionHandler:)", classes: ["URLSessionWebSocketTask", "NSURLSessionWebSocketTask"],
        swift: ["receive(completionHandler:)"], selectors: ["receiveMessageWithCompletionHandler:"])

    /// A message received on a WebSocket task, awaited.
    public static let webSocketReceive = API(
        "URLSessionWebSocketTask.receive()", classes: ["URLSessionWebSocketTask"], swift: ["receive()"])

    // MARK: URLSession

    /// Data and upload tasks that hand the response to a completion handler.
    public static let sessionDataTask = API(
        "URLSession.dataTask(with:completionHandler:)", classes: ["URLSession", "NSURLSession"],
        swift: ["dataTask(with:completionHandler:)", "uploadTask(with:from:completionHandler:)", "uploadTask(with:fromFile:completionHandler:)"],
        selectors: ["dataTaskWithURL:completionHandler:", "dataTaskWithRequest:completionHandler:",
                    "uploadTaskWithRequest:fromData:completionHandler:", "uploadTaskWithRequest:fromFile:completionHandler:"])

    /// Download tasks that hand the saved file to a completion handler.
    public static let sessionDownloadTask = API(
        "URLSession.downloadTask(with:completionHandler:)", classes: ["URLSession", "NSURLSession"],
        swift: ["downloadTask(with:completionHandler:)"],
        selectors: ["downloadTaskWithURL:completionHandler:", "downloadTaskWithRequest:completionHandler:"])

    /// The async data, upload and byte-stream calls, which return the response.
    public static let sessionData = API(
        "URLSession.data(from:)", classes: ["URLSession"],
        swift: ["data(from:)", "data(for:)", "upload(for:from:)", "upload(for:fromFile:)", "bytes(from:)", "bytes(for:)"])

    /// The async download calls, which return the saved file.
    public static let sessionDownload = API(
        "URLSession.download(from:)", classes: ["URLSession"], swift: ["download(from:)", "download(for:)"])

    /// A data task delegate's receipt of response data.
    public static let sessionDataDelegateReceipt = API(
        "URLSessionDataDelegate.urlSession(_:dataTask:didReceive:)", classes: ["URLSessionDataDelegate"],
        swift: ["urlSession(_:dataTask:didReceive:)"], selectors: ["URLSession:dataTask:didReceiveData:"])

    /// An `NSURLConnection` delegate's receipt of response data.
    public static let connectionDataDelegateReceipt = API(
        "NSURLConnectionDataDelegate.connection(_:didReceive:)", classes: ["NSURLConnectionDataDelegate"],
        swift: ["connection(_:didReceive:)"], selectors: ["connection:didReceiveData:"])

    /// The file name a server suggested.
    public static let responseSuggestedFilename = API(
        "URLResponse.suggestedFilename", classes: ["URLResponse", "NSURLResponse"], swift: ["suggestedFilename"])

    // MARK: Content read from a URL

    /// Initializers and class methods that read what a URL points to (a file, or a download).
    public static let contentsOfURL = API(
        "Data(contentsOf:)", classes: ["Data", "String", "NSData", "NSMutableData", "NSString", "NSMutableString", "NSDictionary", "NSArray"],
        swift: ["String(contentsOf:)", "String(contentsOf:encoding:)", "String(contentsOf:usedEncoding:)", "Data(contentsOf:)",
                "Data(contentsOf:options:)", "NSString(contentsOf:encoding:)", "NSString(contentsOf:usedEncoding:)", "NSData(contentsOf:)",
                "NSData(contentsOf:options:)", "NSDictionary(contentsOf:)", "NSArray(contentsOf:)"],
        selectors: ["stringWithContentsOfURL:encoding:error:", "stringWithContentsOfURL:usedEncoding:error:", "stringWithContentsOfURL:",
                    "dataWithContentsOfURL:", "dataWithContentsOfURL:options:error:", "initWithContentsOfURL:",
                    "initWithContentsOfURL:encoding:error:", "initWithContentsOfURL:usedEncoding:error:", "initWithContentsOfURL:options:error:",
                    "dictionaryWithContentsOfURL:", "arrayWithContentsOfURL:"])

    /// A stream on what a URL points to.
    public static let inputStreamFromURL = API(
        "InputStream(url:)", classes: ["InputStream", "NSInputStream"], swift: ["InputStream(url:)"],
        selectors: ["inputStreamWithURL:", "initWithURL:"])

    /// Decoders of `Decodable` values (their result is as untrusted as their input).
    public static let decodableDecode = API(
        "JSONDecoder.decode(_:from:)", classes: ["JSONDecoder", "PropertyListDecoder"], swift: ["decode(_:from:)"])

    /// The APIs of this file, for `APIs.all`.
    static let network: [API] = [
        connectionCreation, connectionReceive, webSocketReceiveCallback, webSocketReceive, sessionDataTask, sessionDownloadTask, sessionData, sessionDownload,
        sessionDataDelegateReceipt, connectionDataDelegateReceipt, responseSuggestedFilename, contentsOfURL, inputStreamFromURL,
        decodableDecode,
    ]
}
