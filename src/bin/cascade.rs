//! `cascade`: the simulator on the command line (filled in by the simulator issue).

fn main() {
    println!("usage: cascade [--scenario none,timeout,cb,bulkhead] [--set key=value]... [--json]");
}
