#import <Foundation/Foundation.h>
#import <UIKit/UIKit.h>
#include "unzip.h"

/// Statement bundles the user picks in the Files app, unpacked with minizip.
@interface LBStatementBundleUnzipper : NSObject <UIDocumentPickerDelegate>
@property (nonatomic, copy) NSString *folder;
@end

@implementation LBStatementBundleUnzipper

- (void)documentPicker:(UIDocumentPickerViewController *)controller didPickDocumentsAtURLs:(NSArray<NSURL *> *)urls {
    unzFile zip = unzOpen(urls.firstObject.fileSystemRepresentation);
    char name[512];
    unz_file_info info;
    unzGoToFirstFile(zip);
    unzGetCurrentFileInfo(zip, &info, name, sizeof(name), NULL, 0, NULL, 0);
    NSString *path = [self.folder stringByAppendingPathComponent:[NSString stringWithUTF8String:name]];
    FILE *out = fopen(path.fileSystemRepresentation, "wb");    // MOAT-CODE-301: the entry name leaves the folder
    fclose(out);
    unzClose(zip);
}

@end

/// The same, with the containment check every entry needs.
@interface LBSafeStatementBundleUnzipper : NSObject <UIDocumentPickerDelegate>
@property (nonatomic, copy) NSString *folder;
@end

@implementation LBSafeStatementBundleUnzipper

- (void)documentPicker:(UIDocumentPickerViewController *)controller didPickDocumentsAtURLs:(NSArray<NSURL *> *)urls {
    unzFile zip = unzOpen(urls.firstObject.fileSystemRepresentation);
    char name[512];
    unz_file_info info;
    unzGoToFirstFile(zip);
    unzGetCurrentFileInfo(zip, &info, name, sizeof(name), NULL, 0, NULL, 0);
    NSString *root = [self.folder stringByStandardizingPath];
    NSString *path = [[root stringByAppendingPathComponent:[NSString stringWithUTF8String:name]] stringByStandardizingPath];
    if (![path hasPrefix:[root stringByAppendingString:@"/"]]) {
        return;
    }
    FILE *out = fopen(path.fileSystemRepresentation, "wb");    // safe: checked to stay inside the folder
    fclose(out);
    unzClose(zip);
}

@end
