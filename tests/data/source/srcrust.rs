// Source correlation in Rust (tests/t/source_lines.sh): the calls come out
// of the standard library; the line is the marked one.
use std::io::Write;

#[inline(never)]
fn detect_backend() -> &'static str {
    let mut out = std::io::stdout();
    out.write_all(b"rust-backend\n").unwrap(); // MARK:rust_write
    "avx2"
}

fn main() {
    println!("rust-main {}", std::env::args().count()); // MARK:rust_println
    let b = detect_backend();
    std::fs::write("/dev/null", b).unwrap(); // MARK:rust_fs_write
}
