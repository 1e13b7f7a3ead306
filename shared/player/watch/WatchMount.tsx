/**
 * Where 一起看 hooks into the video page: a 一起看 button, and on a room's link (?room=) the room
 * itself. Everything else — the panel, the socket, the sync, the QR code — is one chunk imported
 * on the button's click or, on a room's link, after hydration (the /video route's JavaScript
 * budget has no room for it). docs/decisions/0100-watch-rooms.md.
 */
import { useEffect, useState, type ComponentType } from "react";
import type { WatchPartyProps } from "./WatchParty";

type Props = Omit<WatchPartyProps, "code" | "onLeave">;

export function WatchMount(props: Props) {
  const [Loaded, setLoaded] = useState<ComponentType<WatchPartyProps> | null>(null);
  const [code, setCode] = useState<string | null>(null);
  /** Loads the room's chunk: to open a room (null) or to join `room`. */
  const load = (room: string | null) =>
    void import("./WatchParty").then(
      (module) => {
        setCode(room);
        setLoaded(() => module.WatchParty);
      },
      (error: unknown) => console.error("一起看加载失败", error),
    );
  useEffect(() => {
    const room = new URLSearchParams(location.search).get("room");
    if (room) load(room);
  }, []);
  const leave = () => {
    setLoaded(null);
    setCode(null);
  };
  if (Loaded) return <Loaded {...props} code={code} onLeave={leave} />;
  return (
    <button type="button" className="button action-button watch-open" onClick={() => load(null)}>
      一起看
    </button>
  );
}
