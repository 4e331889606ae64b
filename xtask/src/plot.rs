//! A latency-by-percentile plot (the HDR histogram's usual picture) as a PNG,
//! without dependencies: a palette raster, a 5×7 pixel font, and a PNG
//! writer whose deflate uses the fixed Huffman codes and copies of the
//! previous byte or row (a plot is mostly runs of one colour).

/// One line of the plot: its name and (percentile, µs) points, by percentile.
#[derive(Debug)]
pub(crate) struct Lane {
    pub(crate) name: String,
    pub(crate) points: Vec<(f64, f64)>,
}

const WIDTH: usize = 960;
const HEIGHT: usize = 560;
/// The plot area's edges, pixels.
const LEFT: usize = 110;
const RIGHT: usize = WIDTH - 30;
const TOP: usize = 50;
const BOTTOM: usize = HEIGHT - 80;
/// Each font pixel drawn as a square this wide.
const SCALE: usize = 2;

/// The palette: background, ink, grid, then one colour a lane.
const PALETTE: [[u8; 3]; 7] = [
    [255, 255, 255],
    [0, 0, 0],
    [220, 220, 220],
    [31, 119, 180],
    [255, 127, 14],
    [44, 160, 44],
    [214, 39, 40],
];
const INK: u8 = 1;
const GRID: u8 = 2;
const FIRST_LANE: u8 = 3;

/// The x axis: `log10(1 / (1 − p))`, the maximum drawn at 99.999 %.
const X_MAX: f64 = 5.0;

fn x_of(percentile: f64) -> f64 {
    let p = (percentile / 100.0).min(0.99999);
    (1.0 / (1.0 - p)).log10().min(X_MAX)
}

/// Draws `lanes` (µs on a log scale against [`x_of`]) under `title`.
pub(crate) fn percentile_png(title: &str, lanes: &[Lane]) -> Vec<u8> {
    let mut c = Canvas::new();
    let values = lanes.iter().flat_map(|l| l.points.iter().map(|p| p.1));
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| {
        (lo.min(v.max(1.0)), hi.max(v.max(1.0)))
    });
    let (y_lo, y_hi) = (
        lo.log10().floor(),
        hi.log10().ceil().max(lo.log10().floor() + 1.0),
    );
    let px = |x: f64| LEFT as f64 + x / X_MAX * (RIGHT - LEFT) as f64;
    let py = |us: f64| {
        let f = (us.max(1.0).log10() - y_lo) / (y_hi - y_lo);
        BOTTOM as f64 - f * (BOTTOM - TOP) as f64
    };
    axes(&mut c, y_lo as i32, y_hi as i32, &px, &py);
    c.text(LEFT, 6, title, INK);
    for (k, lane) in lanes.iter().enumerate() {
        let colour = FIRST_LANE + (k % (PALETTE.len() - FIRST_LANE as usize)) as u8;
        let pts: Vec<(f64, f64)> = lane
            .points
            .iter()
            .map(|&(p, us)| (px(x_of(p)), py(us)))
            .collect();
        for w in pts.windows(2) {
            c.line(w[0], w[1], colour);
        }
        let y = TOP + 12 + k * 22;
        c.line(
            ((LEFT + 12) as f64, (y + 6) as f64),
            ((LEFT + 42) as f64, (y + 6) as f64),
            colour,
        );
        c.text(LEFT + 50, y, &lane.name, INK);
    }
    c.png()
}

/// The grid, the ticks and the axes' names.
fn axes(c: &mut Canvas, y_lo: i32, y_hi: i32, px: &dyn Fn(f64) -> f64, py: &dyn Fn(f64) -> f64) {
    let ticks = [
        (50.0, "50%"),
        (90.0, "90%"),
        (99.0, "99%"),
        (99.9, "99.9%"),
        (99.99, "99.99%"),
        (100.0, "MAX"),
    ];
    for (p, label) in ticks {
        let x = px(x_of(p));
        c.line((x, TOP as f64), (x, BOTTOM as f64), GRID);
        let width = label.len() * 6 * SCALE;
        c.text(
            (x as usize).saturating_sub(width / 2),
            BOTTOM + 10,
            label,
            INK,
        );
    }
    for e in y_lo..=y_hi {
        let us = 10f64.powi(e);
        let y = py(us);
        c.line((LEFT as f64, y), (RIGHT as f64, y), GRID);
        let label = format!("{us:.0}");
        let width = label.len() * 6 * SCALE;
        c.text(LEFT.saturating_sub(width + 8), y as usize - 7, &label, INK);
    }
    c.line((LEFT as f64, TOP as f64), (LEFT as f64, BOTTOM as f64), INK);
    c.line(
        (LEFT as f64, BOTTOM as f64),
        (RIGHT as f64, BOTTOM as f64),
        INK,
    );
    c.text(LEFT, BOTTOM + 40, "PERCENTILE", INK);
    c.text(5, TOP - 22, "MICROSECONDS", INK);
}

/// A raster of palette indices.
struct Canvas {
    pixels: Vec<u8>,
}

impl Canvas {
    fn new() -> Canvas {
        Canvas {
            pixels: vec![0; WIDTH * HEIGHT],
        }
    }

    fn set(&mut self, x: i64, y: i64, colour: u8) {
        if (0..WIDTH as i64).contains(&x) && (0..HEIGHT as i64).contains(&y) {
            self.pixels[y as usize * WIDTH + x as usize] = colour;
        }
    }

    /// A line two pixels thick, from `a` to `b`.
    fn line(&mut self, a: (f64, f64), b: (f64, f64), colour: u8) {
        let steps = (b.0 - a.0).abs().max((b.1 - a.1).abs()).ceil().max(1.0) as i64;
        for i in 0..=steps {
            let t = i as f64 / steps as f64;
            let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            let (x, y) = (x.round() as i64, y.round() as i64);
            self.set(x, y, colour);
            if colour != GRID {
                self.set(x + 1, y, colour);
                self.set(x, y + 1, colour);
            }
        }
    }

    /// `text` in capitals from (`x`, `y`), its top left.
    fn text(&mut self, x: usize, y: usize, text: &str, colour: u8) {
        for (i, ch) in text.chars().enumerate() {
            let rows = glyph(ch.to_ascii_uppercase());
            let left = x + i * 6 * SCALE;
            for (r, bits) in rows.iter().enumerate() {
                for col in 0..5 {
                    if bits & (0x10 >> col) != 0 {
                        for (dx, dy) in (0..SCALE).flat_map(|a| (0..SCALE).map(move |b| (a, b))) {
                            let px = (left + col * SCALE + dx) as i64;
                            self.set(px, (y + r * SCALE + dy) as i64, colour);
                        }
                    }
                }
            }
        }
    }

    /// The raster as a PNG: 8-bit palette, each row unfiltered.
    fn png(&self) -> Vec<u8> {
        let mut raw = Vec::with_capacity((WIDTH + 1) * HEIGHT);
        for row in self.pixels.chunks(WIDTH) {
            raw.push(0);
            raw.extend_from_slice(row);
        }
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&(WIDTH as u32).to_be_bytes());
        ihdr.extend_from_slice(&(HEIGHT as u32).to_be_bytes());
        ihdr.extend_from_slice(&[8, 3, 0, 0, 0]);
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        chunk(&mut out, b"IHDR", &ihdr);
        chunk(&mut out, b"PLTE", &PALETTE.concat());
        chunk(&mut out, b"IDAT", &zlib(&raw, WIDTH + 1));
        chunk(&mut out, b"IEND", &[]);
        out
    }
}

/// A 5×7 glyph, a row a byte (bit 4 the leftmost pixel); `?` for a
/// character the font lacks.
fn glyph(c: char) -> [u8; 7] {
    match c {
        '0' => [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
        '1' => [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        '2' => [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
        '3' => [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        '4' => [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
        '5' => [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        '6' => [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
        '7' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        '8' => [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
        '9' => [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        'A' => [0x0E, 0x11, 0x11, 0x11, 0x1F, 0x11, 0x11],
        'B' => [0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E],
        'C' => [0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E],
        'D' => [0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C],
        'E' => [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F],
        'F' => [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10],
        'G' => [0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F],
        'H' => [0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
        'I' => [0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E],
        'J' => [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C],
        'K' => [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11],
        'L' => [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F],
        'M' => [0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11],
        'N' => [0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11],
        'O' => [0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
        'P' => [0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10],
        'Q' => [0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D],
        'R' => [0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11],
        'S' => [0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E],
        'T' => [0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
        'U' => [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
        'V' => [0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04],
        'W' => [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A],
        'X' => [0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11],
        'Y' => [0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04],
        'Z' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F],
        ' ' => [0; 7],
        '.' => [0, 0, 0, 0, 0, 0x0C, 0x0C],
        ',' => [0, 0, 0, 0, 0x0C, 0x04, 0x08],
        ':' => [0, 0x0C, 0x0C, 0, 0x0C, 0x0C, 0],
        '%' => [0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03],
        '=' => [0, 0, 0x1F, 0, 0x1F, 0, 0],
        '/' => [0, 0x01, 0x02, 0x04, 0x08, 0x10, 0],
        '-' => [0, 0, 0, 0x1F, 0, 0, 0],
        '+' => [0, 0x04, 0x04, 0x1F, 0x04, 0x04, 0],
        '(' => [0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02],
        ')' => [0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08],
        _ => [0x0E, 0x11, 0x01, 0x02, 0x04, 0, 0x04],
    }
}

/// Appends a PNG chunk: length, type, data, CRC of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// `data` as a zlib stream: one deflate block of fixed Huffman codes, each
/// position a literal or the longer copy of the byte before or of the row
/// (`stride` bytes) above.
fn zlib(data: &[u8], stride: usize) -> Vec<u8> {
    let mut bits = Bits::default();
    bits.put(0x78, 8);
    bits.put(0x01, 8);
    bits.put(0b011, 3); // the last block, fixed codes
    let mut i = 0;
    while i < data.len() {
        let run = |d: usize| {
            if i < d {
                return 0;
            }
            (0..258.min(data.len() - i))
                .take_while(|&k| data[i + k] == data[i + k - d])
                .count()
        };
        let (by_byte, by_row) = (run(1), run(stride));
        let (len, dist) = if by_row >= by_byte {
            (by_row, stride)
        } else {
            (by_byte, 1)
        };
        if len >= 3 {
            bits.copy(len, dist);
            i += len;
        } else {
            bits.symbol(u16::from(data[i]));
            i += 1;
        }
    }
    bits.symbol(256);
    let mut out = bits.finish();
    out.extend_from_slice(&adler32(data).to_be_bytes());
    out
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in data {
        a = (a + u32::from(x)) % 65_521;
        b = (b + a) % 65_521;
    }
    (b << 16) | a
}

const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];

/// A deflate bit stream: values least significant bit first, Huffman codes
/// most significant bit first.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    fn put(&mut self, value: u32, count: u32) {
        self.acc |= u64::from(value) << self.n;
        self.n += count;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    /// A Huffman code of `len` bits, sent from its top bit.
    fn code(&mut self, code: u32, len: u32) {
        let reversed = code.reverse_bits() >> (32 - len);
        self.put(reversed, len);
    }

    /// A literal/length symbol in the fixed code.
    fn symbol(&mut self, s: u16) {
        let s = u32::from(s);
        match s {
            0..=143 => self.code(0x30 + s, 8),
            144..=255 => self.code(0x190 + s - 144, 9),
            256..=279 => self.code(s - 256, 7),
            _ => self.code(0xC0 + s - 280, 8),
        }
    }

    /// A copy of `len` (3 to 258) bytes from `dist` back (1 to 32768).
    fn copy(&mut self, len: usize, dist: usize) {
        let l = LENGTH_BASE
            .iter()
            .rposition(|&b| usize::from(b) <= len)
            .unwrap_or(0);
        self.symbol(257 + l as u16);
        self.put(
            (len - usize::from(LENGTH_BASE[l])) as u32,
            u32::from(LENGTH_EXTRA[l]),
        );
        let d = DIST_BASE
            .iter()
            .rposition(|&b| usize::from(b) <= dist)
            .unwrap_or(0);
        self.code(d as u32, 5);
        self.put(
            (dist - usize::from(DIST_BASE[d])) as u32,
            u32::from(DIST_EXTRA[d]),
        );
    }

    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums_match_their_standards() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
    }

    #[test]
    fn a_plot_is_a_small_png() {
        let lanes = [Lane {
            name: "ours FileStoreSync=Y".into(),
            points: vec![(50.0, 120.0), (99.0, 900.0), (100.0, 4000.0)],
        }];
        let png = percentile_png("N = 10", &lanes);
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert_eq!(&png[12..16], b"IHDR");
        assert!(png.ends_with(&[0xAE, 0x42, 0x60, 0x82]), "IEND's CRC");
        // Runs of one colour compress to a small fraction of the raster.
        assert!(png.len() < WIDTH * HEIGHT / 10, "{}", png.len());
    }

    #[test]
    fn fixed_codes_encode_a_known_stream() {
        // zlib.compress(b"a", level) with fixed codes: 78 01 4b 04 00 00 62 00 62.
        assert_eq!(
            zlib(b"a", 1),
            [0x78, 0x01, 0x4B, 0x04, 0x00, 0x00, 0x62, 0x00, 0x62]
        );
    }
}
