/**
 * Opens the 举报 / 报错 dialog (ReportDialog.tsx), loading its module on the first use: the
 * buttons that open it are in the page, the dialog's code is not in the route's first JavaScript.
 */
import { useState, type ComponentType, type ReactElement } from "react";
import type { ReportDialogProps } from "./ReportDialog";

type Wanted = Omit<ReportDialogProps, "onClose">;

export function useReportDialog(): { open: (props: Wanted) => void; dialog: ReactElement | null } {
  const [shown, setShown] = useState<{ Dialog: ComponentType<ReportDialogProps>; props: Wanted; key: number } | null>(null);
  const open = (props: Wanted) => {
    import("./ReportDialog")
      .then((module) => setShown((current) => ({ Dialog: module.ReportDialog, props, key: (current?.key ?? 0) + 1 })))
      .catch((error: unknown) => {
        console.error("举报窗口加载失败", error);
        window.alert("加载失败，请检查网络后重试");
      });
  };
  const dialog = shown ? <shown.Dialog key={shown.key} {...shown.props} onClose={() => setShown(null)} /> : null;
  return { open, dialog };
}
