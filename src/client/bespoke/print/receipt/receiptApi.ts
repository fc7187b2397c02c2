/** The mall receipt (bill type 0819) as the server answers it for printing (salesorderhead/receipt). */
export interface ReceiptData {
  billType: string;
  title: string;
  company: string;
  head: {
    id: string;
    billNo: string;
    billDate: string;
    bartererName?: string;
    staffName?: string;
    totalQty?: string;
    finalAmt?: string;
    remark?: string;
  };
  lines: { commInfoName?: string; standard?: string; unitName?: string; qty?: string; taxPrice?: string; totalAmt?: string }[];
  salesOrderHeadMallVO: {
    /** 2: the buyer picks the goods up at the salesroom; otherwise they are delivered to the contact. */
    isSalesroom: number;
    salesroomVO?: { roomName?: string; areaName?: string; address?: string };
    customercontactsVO?: { contacts?: string; phone?: string; areaName?: string; address?: string };
  };
  /** The mobile order detail the QR code links to. */
  orderUrl: string;
}

export const SELF_PICKUP = 2;
