import { it } from "vitest";
import { writeFile } from "node:fs/promises";
import { decodePcm } from "../../scripts/media/intro-detect";
import { fingerprint, sharedIntro } from "../../scripts/media/intro-fingerprint";
import { runFfmpeg } from "../../scripts/media/ffmpeg";
import { concat, music } from "./generated-audio";
it("dbg", async () => {
  const OPENING = music(12, 1);
  const a = concat(music(4, 13), OPENING, music(20, 14));
  const b = concat(music(4, 23), OPENING, music(20, 24));
  console.log("direct", JSON.stringify(sharedIntro(fingerprint(a), fingerprint(b))));
  const raw = (x: Float32Array, f: string) => writeFile(f, Buffer.from(x.buffer));
  await raw(a, "/tmp/h32b-a.f32"); await raw(b, "/tmp/h32b-b.f32");
  for (const [x, f] of [["a", "/tmp/h32b-a.f32"], ["b", "/tmp/h32b-b.f32"]]) await runFfmpeg(["-f","f32le","-ar","8000","-ac","1","-i",f,"-c:a","aac","-b:a","96k","-ar","44100",`/tmp/h32b-${x}.mp4`]);
  const da = await decodePcm("/tmp/h32b-a.mp4"), db = await decodePcm("/tmp/h32b-b.mp4");
  console.log("lens", a.length, da.length, db.length);
  console.log("aac", JSON.stringify(sharedIntro(fingerprint(da), fingerprint(db))));
  let d=0; for (let i=0;i<8000;i++) d+=Math.abs(da[i+40000]-a[i+40000]); console.log("diff", d/8000);
});
