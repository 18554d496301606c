//! svc-adhoc-sign <Mach-O>: replaces the file's code signature with an ad-hoc one (SHA-256 page
//! hashes, no certificate), as `codesign --sign -` does. The file must carry an LC_CODE_SIGNATURE
//! load command whose data ends the file (scripts/release/plugin.ts makes room for it).
use apple_codesign_adhoc::MachoSigner;
use std::{env, fs, process};

fn main() {
    let args: Vec<String> = env::args().collect();
    if args.len() != 2 {
        eprintln!("usage: svc-adhoc-sign <Mach-O file>");
        process::exit(2);
    }
    let file = &args[1];
    let signed = fs::read(file)
        .map_err(|e| e.to_string())
        .and_then(|data| MachoSigner::new(data).map_err(|e| e.to_string()))
        .and_then(|signer| {
            let mut out = Vec::new();
            signer.sign(&mut out).map(|_| out).map_err(|e| e.to_string())
        })
        .and_then(|out| fs::write(file, out).map_err(|e| e.to_string()));
    if let Err(e) = signed {
        eprintln!("svc-adhoc-sign {}: {}", file, e);
        process::exit(1);
    }
}
